#include "gui/DatabaseWriter.h"

#include "core/Error.h"
#include "store/ProjectDatabase.h"

#include <exception>
#include <utility>

namespace astrolabe::gui {

DatabaseWriter::DatabaseWriter(std::string path)
    : m_path(std::move(path))
    , m_thread([this] { loop(); }) {}

DatabaseWriter::~DatabaseWriter() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_one();
    m_thread.join();
}

void DatabaseWriter::enqueue(Job job) {
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(job));
    }
    m_wake.notify_one();
}

void DatabaseWriter::post(Task task) {
    enqueue(Job{std::move(task), nullptr});
}

void DatabaseWriter::call(const Task& task) {
    std::promise<void> done;
    std::future<void> result = done.get_future();
    enqueue(Job{task, &done});
    result.get();
}

void DatabaseWriter::flush() {
    call([](ProjectDatabase&) {});
}

std::vector<std::string> DatabaseWriter::takeErrors() {
    std::lock_guard lock(m_mutex);
    return std::exchange(m_errors, {});
}

void DatabaseWriter::loop() {
    std::unique_ptr<ProjectDatabase> db;
    std::string openError;
    try {
        db = std::make_unique<ProjectDatabase>(m_path);
    } catch (const std::exception& e) {
        openError = e.what();
    }
    for (;;) {
        Job job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
            if (m_queue.empty())
                return; // stopping, and everything queued is written
            job = std::move(m_queue.front());
            m_queue.pop_front();
        }
        try {
            if (!db)
                throw Error(ErrorKind::Input, "cannot open the project database: " + openError);
            job.task(*db);
            if (job.done)
                job.done->set_value();
        } catch (const std::exception& e) {
            if (job.done) {
                job.done->set_exception(std::current_exception());
            } else {
                std::lock_guard lock(m_mutex);
                m_errors.push_back(e.what());
            }
        } catch (...) {
            if (job.done)
                job.done->set_exception(std::current_exception());
        }
    }
}

} // namespace astrolabe::gui
