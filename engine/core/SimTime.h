#pragma once
// Simulated time: a strong type over signed 64-bit picoseconds.
//
// Picoseconds because real inputs carry fractional nanoseconds (936.25 ns link latency).
// int64 ps covers +-106 days of simulated time, far beyond any training iteration.
// Arithmetic is overflow-checked (one predictable branch per operation): an overflow throws
// astrolabe::Error instead of silently wrapping into a negative clock.

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>

namespace astrolabe {

[[noreturn]] void throwTimeOverflow(const char* operation);

class SimTime {
public:
    constexpr SimTime() = default;

    static constexpr SimTime fromPs(int64_t ps) { return SimTime(ps); }
    static constexpr SimTime fromNs(int64_t ns) { return SimTime(checkedMul(ns, 1000)); }
    static constexpr SimTime fromUs(int64_t us) { return SimTime(checkedMul(us, 1000'000)); }
    static constexpr SimTime fromMs(int64_t ms) { return SimTime(checkedMul(ms, 1000'000'000)); }
    /// Rounds to the nearest picosecond; the one place a rate-derived duration becomes time.
    static SimTime fromNsRounded(double ns) { return fromPsRounded(ns * 1000.0); }
    static SimTime fromPsRounded(double ps) {
        if (!(std::fabs(ps) < 9.2e18))
            throwTimeOverflow("conversion from floating point");
        return SimTime(std::llround(ps));
    }
    static constexpr SimTime zero() { return SimTime(0); }
    static constexpr SimTime max() { return SimTime(std::numeric_limits<int64_t>::max()); }

    constexpr int64_t ps() const { return m_ps; }
    /// Whole nanoseconds, rounded toward negative infinity (ASTRA-sim's "cycles").
    constexpr int64_t nsFloor() const { return m_ps >= 0 ? m_ps / 1000 : -((-m_ps + 999) / 1000); }
    constexpr double ns() const { return static_cast<double>(m_ps) / 1e3; }
    constexpr double us() const { return static_cast<double>(m_ps) / 1e6; }
    constexpr double ms() const { return static_cast<double>(m_ps) / 1e9; }
    constexpr double seconds() const { return static_cast<double>(m_ps) / 1e12; }

    constexpr SimTime operator+(SimTime o) const { return SimTime(checkedAdd(m_ps, o.m_ps)); }
    constexpr SimTime operator-(SimTime o) const { return SimTime(checkedSub(m_ps, o.m_ps)); }
    constexpr SimTime operator*(int64_t k) const { return SimTime(checkedMul(m_ps, k)); }
    constexpr SimTime& operator+=(SimTime o) { return *this = *this + o; }
    constexpr SimTime& operator-=(SimTime o) { return *this = *this - o; }
    constexpr auto operator<=>(const SimTime&) const = default;

private:
    constexpr explicit SimTime(int64_t ps)
        : m_ps(ps) {}

    static constexpr int64_t checkedAdd(int64_t a, int64_t b) {
        int64_t r = 0;
        if (__builtin_add_overflow(a, b, &r))
            throwTimeOverflow("addition");
        return r;
    }
    static constexpr int64_t checkedSub(int64_t a, int64_t b) {
        int64_t r = 0;
        if (__builtin_sub_overflow(a, b, &r))
            throwTimeOverflow("subtraction");
        return r;
    }
    static constexpr int64_t checkedMul(int64_t a, int64_t b) {
        int64_t r = 0;
        if (__builtin_mul_overflow(a, b, &r))
            throwTimeOverflow("multiplication");
        return r;
    }

    int64_t m_ps = 0;
};

} // namespace astrolabe
