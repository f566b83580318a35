#pragma once
// Helpers for config tests: access to the shared reference inputs (tests skip when ../shared is
// absent), the message a load throws, and the scratch folder every test here uses.

#include "TestPaths.h"
#include "core/Error.h"
#include "support/TempDir.h"

#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <string>

namespace astrolabe::configtest {

inline std::filesystem::path sharedReference() {
    return std::filesystem::path(ASTROLABE_SHARED_DIR) / "reference";
}

/// The message of the error `load` throws (every line of an ErrorList), or "" if none.
inline std::string errorText(const std::function<void()>& load) {
    try {
        load();
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

} // namespace astrolabe::configtest

#define ASTROLABE_REQUIRE_SHARED()                                                                 \
    do {                                                                                           \
        if (!std::filesystem::is_directory(astrolabe::configtest::sharedReference() /              \
                                           "astra-sim"))                                           \
            GTEST_SKIP() << "reference inputs not found at "                                       \
                         << astrolabe::configtest::sharedReference();                              \
    } while (0)
