#pragma once
// One fuzz target per reader. ASTROLABE_FUZZ_TARGET(name) { ... } defines the body once; built
// with libFuzzer (ASTROLABE_LIBFUZZER) it becomes that executable's LLVMFuzzerTestOneInput,
// built normally it is one of the functions the corpus replay test calls for every stored input.
//
// The rule every target checks: bad input may only end in astrolabe::Error of a kind other than
// Internal. Any other exception, an Internal error, a crash, a hang or runaway memory is a
// finding.

#include "core/Error.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace astrolabe::fuzz {

/// Runs `body` on `input`; false (with the reason in `why`) when it ended in anything but a
/// clean astrolabe::Error.
template <typename Body> bool runGuarded(Body body, std::string_view input, std::string* why) {
    try {
        body(input);
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::Internal)
            return true;
        *why = std::string("internal error: ") + e.what();
        return false;
    } catch (const std::exception& e) {
        *why = std::string("exception that is not astrolabe::Error: ") + e.what();
        return false;
    }
    return true;
}

} // namespace astrolabe::fuzz

#ifdef ASTROLABE_LIBFUZZER
#define ASTROLABE_FUZZ_ENTRY(name)                                                                 \
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {                      \
        std::string why;                                                                           \
        if (!astrolabe::fuzz::runGuarded(                                                          \
                astrolabeFuzz_##name, std::string_view(reinterpret_cast<const char*>(data), size), \
                &why)) {                                                                           \
            std::fprintf(stderr, "fuzz finding in %s: %s\n", #name, why.c_str());                  \
            std::abort();                                                                          \
        }                                                                                          \
        return 0;                                                                                  \
    }
#else
#define ASTROLABE_FUZZ_ENTRY(name)
#endif

#define ASTROLABE_FUZZ_TARGET(name)                                                                \
    void astrolabeFuzz_##name(std::string_view input);                                             \
    ASTROLABE_FUZZ_ENTRY(name)                                                                     \
    void astrolabeFuzz_##name(std::string_view input)
