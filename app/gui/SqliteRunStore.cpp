#include "gui/SqliteRunStore.h"

#include "core/Error.h"
#include "export/SpecJson.h"
#include "gui/DatabaseWriter.h"
#include "store/ProjectDatabase.h"
#include "store/RunStorage.h"

#include <QObject>

namespace astrolabe::gui {

namespace {

RunStatus fromDb(astrolabe::RunStatus status) {
    switch (status) {
    case astrolabe::RunStatus::Ok:
        return RunStatus::Finished;
    case astrolabe::RunStatus::Failed:
        return RunStatus::Failed;
    case astrolabe::RunStatus::Cancelled:
        break;
    }
    return RunStatus::Cancelled;
}

QStringList toQt(const std::vector<std::string>& list) {
    QStringList out;
    for (const std::string& s : list)
        out << QString::fromStdString(s);
    return out;
}

std::vector<std::string> toStd(const QStringList& list) {
    std::vector<std::string> out;
    for (const QString& s : list)
        out.push_back(s.toStdString());
    return out;
}

} // namespace

SqliteRunStore::SqliteRunStore(const QString& databasePath)
    : m_path(databasePath)
    , m_db(std::make_unique<ProjectDatabase>(databasePath.toStdString()))
    , m_writer(std::make_shared<DatabaseWriter>(databasePath.toStdString())) {
    loadRuns();
}

SqliteRunStore::~SqliteRunStore() = default;

void SqliteRunStore::loadRuns() {
    std::vector<astrolabe::RunRecord> rows = m_db->listRuns(); // newest first
    m_runs.clear();
    m_runs.reserve(rows.size());
    for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
        RunRecord r;
        r.id = static_cast<int>(it->id);
        r.number = static_cast<int>(it->number);
        noteRunNumber(r.number);
        r.name = QString::fromStdString(it->name);
        r.started =
            QDateTime::fromString(QString::fromStdString(it->created), Qt::ISODate).toLocalTime();
        r.status = fromDb(it->status);
        r.simulatedTime = it->simulatedTime;
        r.wallSeconds = it->wallSeconds;
        r.events = it->events;
        r.message = QString::fromStdString(it->errorMessage);
        r.tags = toQt(it->tags);
        r.notes = QString::fromStdString(it->notes);
        r.activityCount = it->activityCount;
        r.databasePath = m_path;
        if (const std::optional<astrolabe::RunRecord> full = m_db->findRun(it->id))
            r.spec = specFromJsonText(full->configJson);
        m_runs.push_back(std::move(r));
    }
}

namespace {
// Stores a run (finished or not) and fills in its id and activity count.
// The record's own number, start time, tags and notes go in with it.
void saveRecord(ProjectDatabase& db, RunRecord& record) {
    RunStamp stamp;
    stamp.number = record.number;
    if (record.started.isValid())
        stamp.created = record.started.toUTC().toString(Qt::ISODate).toStdString();
    stamp.tags = toStd(record.tags);
    stamp.notes = record.notes.toStdString();
    if (record.status == RunStatus::Finished && record.result) {
        record.id =
            static_cast<int>(storeRun(db, record.spec, *record.result, record.wallSeconds, stamp));
        record.activityCount = record.result->activities.size();
        return;
    }
    const astrolabe::RunStatus status = record.status == RunStatus::Cancelled
                                            ? astrolabe::RunStatus::Cancelled
                                            : astrolabe::RunStatus::Failed;
    record.id = static_cast<int>(storeFailedRun(
        db, record.spec, status, record.message.toStdString(), record.wallSeconds, stamp));
}
} // namespace

int SqliteRunStore::add(RunRecord record) {
    if (record.number == 0)
        record.number = takeRunNumber();
    noteRunNumber(record.number);
    if (record.databasePath != m_path || record.id <= 0) {
        // Not saved yet (runs moved in from an unsaved project): saved now, waiting for the
        // writer. The main window saves new runs with backgroundSaver() instead.
        try {
            m_writer->call([&record](ProjectDatabase& db) { saveRecord(db, record); });
            record.databasePath = m_path;
        } catch (const std::exception& e) {
            record.id = m_nextMemoryId++;
            record.databasePath.clear();
            record.message += (record.message.isEmpty() ? QString() : QStringLiteral("\n")) +
                              QObject::tr("Not saved in the project database: %1")
                                  .arg(QString::fromStdString(e.what()));
        }
    }
    m_runs.push_back(std::move(record));
    return m_runs.back().id;
}

bool SqliteRunStore::update(const RunRecord& record) {
    const int row = rowOf(record.id);
    if (row < 0)
        return false;
    RunRecord& old = m_runs[static_cast<size_t>(row)];
    if (!old.databasePath.isEmpty()) {
        const int64_t id = record.id;
        if (record.name != old.name)
            m_writer->post([id, name = record.name.toStdString()](ProjectDatabase& db) {
                db.renameRun(id, name);
            });
        if (record.tags != old.tags)
            m_writer->post(
                [id, tags = toStd(record.tags)](ProjectDatabase& db) { db.setTags(id, tags); });
        if (record.notes != old.notes)
            m_writer->post([id, notes = record.notes.toStdString()](ProjectDatabase& db) {
                db.setNotes(id, notes);
            });
    }
    old = record;
    return true;
}

bool SqliteRunStore::remove(int id) {
    const int row = rowOf(id);
    if (row < 0)
        return false;
    if (!m_runs[static_cast<size_t>(row)].databasePath.isEmpty())
        m_writer->post([id](ProjectDatabase& db) { db.deleteRun(id); });
    m_runs.erase(m_runs.begin() + row);
    return true;
}

RunStore::BackgroundSaver SqliteRunStore::backgroundSaver() const {
    // The writer outlives the store while a save holds it; it is never released on its own
    // thread (the closure below runs on the caller's worker and keeps no reference in the task).
    std::shared_ptr<DatabaseWriter> writer = m_writer;
    const QString path = m_path;
    return [writer, path](RunRecord& record) {
        writer->call([&record](ProjectDatabase& db) { saveRecord(db, record); });
        record.databasePath = path;
    };
}

void SqliteRunStore::flush() {
    m_writer->flush();
}

QStringList SqliteRunStore::takeWriteErrors() {
    return toQt(m_writer->takeErrors());
}

} // namespace astrolabe::gui
