#pragma once
// What the window shows before a project is open: three ways in, and the recent projects.

#include <QWidget>

class QListWidget;

namespace astrolabe::gui {

class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);
    void setRecentProjects(const QStringList& paths);

signals:
    void quickStartRequested();
    void newProjectRequested();
    void openRequested();
    void recentRequested(const QString& path);

private:
    QListWidget* m_recent;
};

} // namespace astrolabe::gui
