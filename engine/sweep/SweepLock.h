#pragma once
// One sweep at a time per (database, sweep): two processes running the same sweep into the same
// database would each run and store every point. The lock is an advisory lock (flock) on a file
// beside the database, removed when the lock is released; the kernel drops it when its process
// dies, so a killed sweep never blocks the next one.

#include <string>

namespace astrolabe {

class SweepLock {
public:
    /// Claims the sweep `identity` in the database at `databasePath`. Throws astrolabe::Error
    /// (Input) naming the database and the process holding it when another process (or another
    /// SweepLock in this one) holds the claim.
    SweepLock(const std::string& databasePath, const std::string& identity);
    ~SweepLock();
    SweepLock(const SweepLock&) = delete;
    SweepLock& operator=(const SweepLock&) = delete;

    /// "<database>.sweep-<identity>.lock"
    static std::string lockPath(const std::string& databasePath, const std::string& identity);

private:
    std::string m_path;
    int m_fd = -1;
};

} // namespace astrolabe
