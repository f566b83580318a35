#pragma once
// The one thread that writes a project database for the GUI. Saves (seconds for a large
// timeline), renames, tags, notes and deletions are queued here in order, on one connection, so
// the GUI thread never waits for SQLite's write lock (a rename during a long save would
// otherwise block the event loop until the save commits).

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace astrolabe {
class ProjectDatabase;
}

namespace astrolabe::gui {

class DatabaseWriter {
public:
    using Task = std::function<void(ProjectDatabase& db)>;

    /// Starts the thread, which opens the database (errors surface in the tasks).
    explicit DatabaseWriter(std::string path);
    /// Runs what is queued, then stops. Must not be destroyed on its own thread.
    ~DatabaseWriter();
    DatabaseWriter(const DatabaseWriter&) = delete;
    DatabaseWriter& operator=(const DatabaseWriter&) = delete;

    /// Queues a task; its errors are kept for takeErrors().
    void post(Task task);
    /// Queues a task and waits for it (and everything queued before); rethrows its exception.
    void call(const Task& task);
    /// Waits until everything queued so far is written.
    void flush();
    /// The messages of posted tasks that failed since the last call.
    std::vector<std::string> takeErrors();

private:
    struct Job {
        Task task;
        std::promise<void>* done = nullptr; ///< call(): the caller waits on it
    };
    void enqueue(Job job);
    void loop();

    std::string m_path;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Job> m_queue;
    std::vector<std::string> m_errors;
    bool m_stop = false;
    std::thread m_thread; ///< last: starts once the members above exist
};

} // namespace astrolabe::gui
