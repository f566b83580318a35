#pragma once
// The window's remembered state: geometry, dock layout, recent projects and the unit
// convention, all kept in one QSettings file (GuiServices::settingsFile, or the application's
// default settings when empty). It knows no other window part, so tests drive it with a bare
// QMainWindow and a settings file in a temporary directory.

#include "core/Units.h"

#include <QObject>
#include <QStringList>
#include <memory>

class QActionGroup;
class QMainWindow;
class QMenu;
class QSettings;

namespace astrolabe::gui {

class LayoutController : public QObject {
    Q_OBJECT
public:
    /// Recent projects remembered, most recent first.
    static constexpr int kMaxRecent = 8;

    /// `settingsFile` empty: the application's default QSettings.
    explicit LayoutController(QString settingsFile, QObject* parent = nullptr);

    std::unique_ptr<QSettings> settings() const;

    /// Restores the geometry and dock layout saved by saveWindow() (nothing when none was).
    void restoreWindow(QMainWindow& window) const;
    void saveWindow(const QMainWindow& window) const;

    QStringList recentProjects() const;
    /// How a recent project is listed: "Quick start — /home/me/projects/quickstart", the name
    /// from the file's top-level `name:` line (its folder's name when it has none or cannot be
    /// read) and the folder, since most project files are called project.yaml.
    static QString recentProjectText(const QString& path);
    /// Puts `path` (made absolute) first in the recent list; emits recentChanged.
    void addRecent(const QString& path);
    /// Keeps `menu` filled with the recent projects; choosing one emits recentRequested.
    void attachRecentMenu(QMenu* menu);

    /// The convention saved in the settings; "as entered" when none or a hand-edited value is.
    units::Convention savedUnitConvention() const;
    /// Makes `convention` the process's convention (units::setConvention), saves it and
    /// emits unitConventionChanged.
    void setUnitConvention(units::Convention convention);
    /// Adds the three conventions to `menu` as checkable actions that follow the current one.
    void attachUnitsMenu(QMenu* menu);

signals:
    void recentChanged(const QStringList& recent);
    void recentRequested(const QString& path);
    void unitConventionChanged(units::Convention convention);

private:
    void rebuildRecentMenu();

    QString m_settingsFile;
    QMenu* m_recentMenu = nullptr;
    QActionGroup* m_unitActions = nullptr;
};

} // namespace astrolabe::gui
