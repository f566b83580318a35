#include "gui/LayoutController.h"

#include "core/Error.h"

#include <QActionGroup>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>

namespace astrolabe::gui {

namespace {
const QString kRecentKey = QStringLiteral("recentProjects");
const QString kUnitsKey = QStringLiteral("view/units");
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
} // namespace

LayoutController::LayoutController(QString settingsFile, QObject* parent)
    : QObject(parent)
    , m_settingsFile(std::move(settingsFile)) {}

std::unique_ptr<QSettings> LayoutController::settings() const {
    if (!m_settingsFile.isEmpty())
        return std::make_unique<QSettings>(m_settingsFile, QSettings::IniFormat);
    return std::make_unique<QSettings>();
}

void LayoutController::restoreWindow(QMainWindow& window) const {
    auto s = settings();
    window.restoreGeometry(s->value(kGeometryKey).toByteArray());
    window.restoreState(s->value(kStateKey).toByteArray());
}

void LayoutController::saveWindow(const QMainWindow& window) const {
    auto s = settings();
    s->setValue(kGeometryKey, window.saveGeometry());
    s->setValue(kStateKey, window.saveState());
}

QStringList LayoutController::recentProjects() const {
    return settings()->value(kRecentKey).toStringList();
}

void LayoutController::addRecent(const QString& path) {
    QStringList recent = recentProjects();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings()->setValue(kRecentKey, recent);
    rebuildRecentMenu();
    emit recentChanged(recent);
}

QString LayoutController::recentProjectText(const QString& path) {
    const QFileInfo info(path);
    QString name = info.dir().dirName();
    QFile file(path);
    // Only the first lines are read: the name comes first in every project Astrolabe writes.
    if (file.open(QIODevice::ReadOnly | QIODevice::Text))
        for (int line = 0; line < 64 && !file.atEnd(); ++line) {
            const QString text = QString::fromUtf8(file.readLine(4096)).trimmed();
            if (!text.startsWith(QLatin1String("name:")))
                continue;
            QString value = text.mid(5).trimmed();
            if (value.size() >= 2 && (value.front() == u'"' || value.front() == u'\'') &&
                value.back() == value.front())
                value = value.mid(1, value.size() - 2);
            if (!value.isEmpty())
                name = value;
            break;
        }
    return QStringLiteral("%1 \u2014 %2").arg(name, QDir::toNativeSeparators(info.absolutePath()));
}

void LayoutController::attachRecentMenu(QMenu* menu) {
    m_recentMenu = menu;
    rebuildRecentMenu();
}

void LayoutController::rebuildRecentMenu() {
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = recentProjects();
    for (const QString& path : recent)
        m_recentMenu
            ->addAction(recentProjectText(path), this, [this, path] { emit recentRequested(path); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

units::Convention LayoutController::savedUnitConvention() const {
    try {
        return units::parseConvention(
            settings()->value(kUnitsKey, QStringLiteral("as-entered")).toString().toStdString());
    } catch (const Error&) {
        return units::Convention::AsEntered; // a hand-edited settings file
    }
}

void LayoutController::setUnitConvention(units::Convention convention) {
    units::setConvention(convention);
    if (m_unitActions)
        for (QAction* action : m_unitActions->actions())
            action->setChecked(action->data().toInt() == static_cast<int>(convention));
    settings()->setValue(kUnitsKey, QString::fromLatin1(units::conventionName(convention)));
    emit unitConventionChanged(convention);
}

void LayoutController::attachUnitsMenu(QMenu* menu) {
    m_unitActions = new QActionGroup(this);
    const std::pair<units::Convention, QString> conventions[] = {
        {units::Convention::AsEntered, tr("As &Entered (50 GiB/s, 400 GB/s)")},
        {units::Convention::Decimal, tr("All &Decimal (GB, GB/s)")},
        {units::Convention::Binary, tr("All &Binary (GiB, GiB/s)")},
    };
    for (const auto& [convention, label] : conventions) {
        QAction* action = menu->addAction(label);
        action->setCheckable(true);
        action->setData(static_cast<int>(convention));
        action->setChecked(convention == units::convention());
        m_unitActions->addAction(action);
        connect(action, &QAction::triggered, this,
                [this, c = convention] { setUnitConvention(c); });
    }
}

} // namespace astrolabe::gui
