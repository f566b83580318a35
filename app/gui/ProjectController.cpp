#include "gui/ProjectController.h"

#include "common/LogModel.h"
#include "core/Error.h"
#include "gui/Presets.h"
#include "gui/ProjectDocument.h"

#include <QFileInfo>

namespace astrolabe::gui {

ProjectController::ProjectController(ProjectDocument* document, widgets::LogModel* log,
                                     QObject* parent)
    : QObject(parent)
    , m_document(document)
    , m_log(log) {}

void ProjectController::opened(const QString& path, const QString& logLine) {
    m_hasProject = true;
    emit projectOpened(path);
    m_log->append(widgets::LogModel::Severity::Info, logLine);
}

bool ProjectController::newFromPreset(const QString& presetId) {
    if (!maybeDiscard())
        return false;
    try {
        m_document->reset(preset(presetId).spec, {}, false);
    } catch (const Error& e) {
        emit errorOccurred(tr("New Project"), QString::fromStdString(e.what()), {});
        return false;
    }
    opened({}, tr("New project \"%1\" from a preset").arg(m_document->displayName()));
    emit statusMessage(tr("Press Run (F5) to simulate"), 8000);
    return true;
}

bool ProjectController::newFromSpec(const SimulationSpec& spec, const QString& presetId) {
    if (!maybeDiscard())
        return false;
    m_document->reset(spec, {}, true);
    opened({}, tr("New project \"%1\" (%2 preset)").arg(m_document->displayName(), presetId));
    return true;
}

bool ProjectController::open(const QString& path) {
    if (!maybeDiscard())
        return false;
    QStringList warnings;
    try {
        warnings = m_document->load(path);
    } catch (const Error& e) {
        emit errorOccurred(tr("Open Project"), QString::fromStdString(e.what()),
                           QString::fromStdString(e.where().keyPath));
        return false;
    }
    m_hasProject = true;
    emit projectOpened(path);
    emit fileUsed(path);
    m_log->append(widgets::LogModel::Severity::Info, tr("Opened %1").arg(path));
    // A key that does nothing is said where it is seen: in the log, and in the status bar
    // over the "press Run" hint.
    for (const QString& w : warnings)
        m_log->append(widgets::LogModel::Severity::Warning, w);
    if (!warnings.isEmpty()) {
        const QString count =
            warnings.size() == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings.size());
        emit statusMessage(tr("Opened with %1, in the Log: %2").arg(count, warnings.front()),
                           15000);
    }
    return true;
}

bool ProjectController::save() {
    if (!m_hasProject)
        return false;
    if (m_document->path().isEmpty())
        return saveAsPrompted();
    return saveAs(m_document->path());
}

bool ProjectController::saveAsPrompted() {
    if (!m_hasProject)
        return false;
    const QString path = m_prompts.savePath ? m_prompts.savePath(suggestedPath()) : QString();
    return !path.isEmpty() && saveAs(path);
}

bool ProjectController::saveAs(const QString& path) {
    try {
        m_document->saveAs(path);
    } catch (const Error& e) {
        emit errorOccurred(tr("Save Project"), QString::fromStdString(e.what()), {});
        return false;
    }
    emit saved(path);
    emit fileUsed(path);
    m_log->append(widgets::LogModel::Severity::Info, tr("Saved %1").arg(path));
    emit statusMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

bool ProjectController::importAstra(const AstraImportRequest& request) {
    if (!maybeDiscard())
        return false;
    try {
        m_document->importAstra(request);
    } catch (const Error& e) {
        emit errorOccurred(tr("Import ASTRA-sim Configuration"), QString::fromStdString(e.what()),
                           {});
        return false;
    }
    opened({}, tr("Imported %1 and %2").arg(request.networkYaml, request.systemJson));
    return true;
}

bool ProjectController::maybeDiscard() {
    if (!m_hasProject || !m_document->isModified() || !m_askBeforeDiscarding)
        return true;
    const DiscardChoice choice =
        m_prompts.discard ? m_prompts.discard(m_document->displayName()) : DiscardChoice::Discard;
    if (choice == DiscardChoice::Save)
        return save();
    return choice == DiscardChoice::Discard;
}

QString ProjectController::windowTitle() const {
    if (!m_hasProject)
        return QStringLiteral("Astrolabe");
    const QString where =
        m_document->path().isEmpty() ? tr("not saved") : QFileInfo(m_document->path()).fileName();
    return QStringLiteral("%1 (%2)[*] \u2014 Astrolabe").arg(m_document->displayName(), where);
}

QString ProjectController::suggestedPath() const {
    return m_document->path().isEmpty() ? m_document->displayName() + QStringLiteral(".yaml")
                                        : m_document->path();
}

} // namespace astrolabe::gui
