#pragma once

#include <QMainWindow>

namespace astrolabe::gui {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    /// The About box's text, also shown by "astrolabe --version".
    static QString aboutText();

public slots:
    void showAbout();

private:
    void createMenus();
};

} // namespace astrolabe::gui
