#include "gui/RunController.h"

#include "core/Error.h"
#include "serving/ServingCodec.h"
#include "serving/ServingRun.h"
#include "simulation/Simulation.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QThread>
#include <chrono>
#include <mutex>

namespace astrolabe::gui {

namespace {

// Forwards engine progress to the GUI thread, dropping updates that come sooner than
// kProgressIntervalMs after the last one (the engine may report far more often).
class QueuedProgressSink : public ProgressSink {
public:
    QueuedProgressSink(RunController* controller, int id)
        : m_controller(controller)
        , m_id(id) {}

    void onProgress(const Progress& progress) override {
        using Clock = std::chrono::steady_clock;
        {
            std::lock_guard lock(m_mutex);
            const Clock::time_point now = Clock::now();
            if (m_sent &&
                now - m_last < std::chrono::milliseconds(RunController::kProgressIntervalMs))
                return;
            m_sent = true;
            m_last = now;
        }
        QPointer<RunController> target = m_controller;
        const int id = m_id;
        QMetaObject::invokeMethod(
            m_controller,
            [target, id, progress] {
                if (target)
                    emit target->progressed(id, progress);
            },
            Qt::QueuedConnection);
    }

private:
    RunController* m_controller;
    int m_id;
    std::mutex m_mutex;
    bool m_sent = false;
    std::chrono::steady_clock::time_point m_last;
};

} // namespace

struct RunController::Job {
    int id = 0;
    SimulationSpec spec;
    TraceFactory traces;
    CancelToken cancel;
    std::unique_ptr<QueuedProgressSink> sink;
    QThread* thread = nullptr;
    // Written by the worker before the queued "done" call, read after it on the GUI thread.
    std::shared_ptr<const RunResult> result;
    QString error;
    QString keyPath;
    bool cancelled = false;
    double wallSeconds = 0;
};

RunController::RunController(RunFunction run, QObject* parent)
    : QObject(parent)
    , m_run(run ? std::move(run)
                : RunFunction([](const SimulationSpec& spec, ProgressSink* progress,
                                 const CancelToken* cancel) -> std::shared_ptr<const RunResult> {
                      // A serving project runs as serving, as `astrolabe-cli serve` runs it.
                      if (serving::isServingProject(spec))
                          return std::make_shared<const RunResult>(
                              serving::servingRunResult(spec, serving::runServing(spec)));
                      return runSimulation(spec, progress, cancel);
                  })) {
    qRegisterMetaType<astrolabe::Progress>();
    qRegisterMetaType<std::shared_ptr<const astrolabe::RunResult>>();
}

RunController::~RunController() {
    m_queue.clear();
    if (m_current) {
        m_current->cancel.cancel();
        m_current->thread->wait();
        delete m_current->thread;
    }
}

int RunController::enqueue(const SimulationSpec& spec) {
    return enqueue(spec, TraceFactory());
}

int RunController::enqueue(const SimulationSpec& spec, TraceFactory traces) {
    const int id = m_nextId++;
    m_queue.push_back(Queued{id, spec, std::move(traces)});
    emit queueChanged(queuedCount());
    if (!m_current)
        startNext();
    return id;
}

int RunController::currentRunId() const {
    return m_current ? m_current->id : 0;
}

void RunController::stop() {
    std::deque<Queued> dropped;
    dropped.swap(m_queue);
    for (const Queued& q : dropped)
        emit runDropped(q.id);
    if (!dropped.empty())
        emit queueChanged(0);
    if (m_current)
        m_current->cancel.cancel();
}

bool RunController::cancel(int id) {
    if (m_current && m_current->id == id) {
        m_current->cancel.cancel();
        return true;
    }
    for (auto it = m_queue.begin(); it != m_queue.end(); ++it)
        if (it->id == id) {
            m_queue.erase(it);
            emit runDropped(id);
            emit queueChanged(queuedCount());
            return true;
        }
    return false;
}

void RunController::startNext() {
    if (m_queue.empty()) {
        emit idle();
        return;
    }
    auto job = std::make_unique<Job>();
    job->id = m_queue.front().id;
    job->spec = std::move(m_queue.front().spec);
    job->traces = std::move(m_queue.front().traces);
    m_queue.pop_front();
    job->sink = std::make_unique<QueuedProgressSink>(this, job->id);
    Job* j = job.get();
    const RunFunction run = m_run;
    QPointer<RunController> self = this;
    j->thread = QThread::create([j, run, self] {
        QElapsedTimer clock;
        clock.start();
        try {
            if (j->traces) {
                std::vector<WorkloadTrace> traces = j->traces(j->spec);
                j->result = runSimulation(j->spec, std::move(traces), j->sink.get(), &j->cancel);
            } else {
                j->result = run(j->spec, j->sink.get(), &j->cancel);
            }
            if (!j->result)
                j->error = QStringLiteral("the engine returned no result");
        } catch (const Error& e) {
            j->cancelled = e.kind() == ErrorKind::Cancelled;
            j->error = QString::fromStdString(e.what());
            j->keyPath = QString::fromStdString(e.where().keyPath);
        } catch (const std::exception& e) {
            j->error = QString::fromStdString(e.what());
        }
        j->wallSeconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
        const int id = j->id;
        if (self)
            QMetaObject::invokeMethod(
                self.data(),
                [self, id] {
                    if (self)
                        self->finishJob(id);
                },
                Qt::QueuedConnection);
    });
    j->thread->setObjectName(QStringLiteral("astrolabe-run-%1").arg(j->id));
    m_current = std::move(job);
    emit queueChanged(queuedCount());
    emit runStarted(j->id, QString::fromStdString(j->spec.name));
    j->thread->start();
}

void RunController::finishJob(int id) {
    if (!m_current || m_current->id != id)
        return;
    std::unique_ptr<Job> job = std::move(m_current);
    job->thread->wait();
    delete job->thread;
    if (job->error.isEmpty())
        emit runFinished(job->id, job->result, job->wallSeconds);
    else
        emit runFailed(job->id, job->error, job->keyPath, job->cancelled, job->wallSeconds);
    if (!m_current) // a slot above may have queued (and so started) a run already
        startNext();
}

} // namespace astrolabe::gui
