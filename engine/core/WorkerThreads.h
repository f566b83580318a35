#pragma once
// Independent jobs on worker threads, their results taken on the calling thread: what sweeps,
// the validation pack and the planner's simulations all do.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace astrolabe {

/// Runs work(i) for every i in [0, count) on `jobs` threads (at least one, at most count) and
/// hands each result to deliver(i, result) on the calling thread, in the order they finish, so
/// deliver needs no lock (it may write a database). If deliver throws, no more work is handed
/// out; the threads finish what they hold (those results are dropped) and the exception goes on.
template <typename Result>
void runOnWorkerThreads(size_t count, int jobs, const std::function<Result(size_t)>& work,
                        const std::function<void(size_t, Result&&)>& deliver) {
    std::atomic<size_t> next{0};
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<std::pair<size_t, Result>> finished;
    auto worker = [&] {
        for (size_t i = next++; i < count && !stop; i = next++) {
            Result result = work(i);
            {
                const std::lock_guard lock(mutex);
                finished.emplace_back(i, std::move(result));
            }
            ready.notify_one();
        }
    };
    const size_t workers =
        std::clamp<size_t>(static_cast<size_t>(std::max(jobs, 1)), 1, std::max<size_t>(count, 1));
    std::vector<std::jthread> threads;
    for (size_t w = 0; w < workers; ++w)
        threads.emplace_back(worker);
    for (size_t delivered = 0; delivered < count; ++delivered) {
        std::unique_lock lock(mutex);
        ready.wait(lock, [&] { return !finished.empty(); });
        std::pair<size_t, Result> item = std::move(finished.front());
        finished.pop_front();
        lock.unlock();
        try {
            deliver(item.first, std::move(item.second));
        } catch (...) {
            stop = true;
            threads.clear(); // joins
            throw;
        }
    }
}

} // namespace astrolabe
