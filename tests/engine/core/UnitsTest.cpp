#include "core/Units.h"

#include "core/Error.h"

#include <cmath>
#include <gtest/gtest.h>
#include <string>

using namespace astrolabe;

namespace {

struct SizeCase {
    const char* text;
    uint64_t bytes;
};

struct RateCase {
    const char* text;
    double bytesPerSecond;
};

struct TimeCase {
    const char* text;
    int64_t ps;
};

} // namespace

TEST(Units, AcceptedSizes) {
    const SizeCase cases[] = {
        {"4096 B", 4096},
        {"0 B", 0},
        {"1 KB", 1000},
        {"1 kB", 1000},
        {"1 KiB", 1024},
        {"1 MB", 1000000},
        {"1 MiB", 1048576},
        {"1.5 GB", 1500000000},
        {"2 GiB", 2147483648ULL},
        {"1 TB", 1000000000000ULL},
        {"1 TiB", 1099511627776ULL},
        {"1MiB", 1048576},
        {"  8 B  ", 8},
        {"0.5 KiB", 512},
    };
    for (const SizeCase& c : cases)
        EXPECT_EQ(units::parseSizeBytes(c.text), c.bytes) << c.text;
}

TEST(Units, AcceptedBandwidths) {
    const RateCase cases[] = {
        {"400 GB/s", 400e9},  {"50 GiB/s", 50.0 * 1073741824.0},
        {"100 Gbps", 12.5e9}, {"1000 B/s", 1e3},
        {"1 KB/s", 1e3},      {"1 MB/s", 1e6},
        {"1 TB/s", 1e12},     {"1 KiB/s", 1024},
        {"1 MiB/s", 1048576}, {"1 TiB/s", 1099511627776.0},
        {"8000 bps", 1e3},    {"8 Mbps", 1e6},
        {"1.6 Tbps", 0.2e12}, {"200 Gb/s", 25e9},
    };
    for (const RateCase& c : cases)
        EXPECT_DOUBLE_EQ(units::parseBandwidthBytesPerSecond(c.text), c.bytesPerSecond) << c.text;
}

// docs/limits.md: a bandwidth below 1 KB/s or above 10^18 B/s is refused with the limits in the
// message, whichever unit wrote it; the limits themselves are accepted.
TEST(Units, BandwidthsOutsideTheLimitsAreRefused) {
    for (const char* text :
         {"999 B/s", "7999 bps", "0.9 KiB/s", "1e-300 GB/s", "1000001 TB/s", "1e300 GB/s"}) {
        try {
            units::parseBandwidthBytesPerSecond(text);
            ADD_FAILURE() << text << " was accepted";
        } catch (const Error& e) {
            EXPECT_NE(e.message().find("from 1 KB/s to 1000000 TB/s"), std::string::npos)
                << e.message();
            EXPECT_NE(e.message().find(text), std::string::npos) << e.message();
            EXPECT_EQ(e.hint(), kLimitsHint);
        }
    }
    EXPECT_DOUBLE_EQ(units::parseBandwidthBytesPerSecond("1 KB/s"), 1e3);
    EXPECT_DOUBLE_EQ(units::parseBandwidthBytesPerSecond("1000000 TB/s"), 1e18);
    EXPECT_EQ(units::bandwidthRangeProblem(1e3), "");
    EXPECT_EQ(units::bandwidthRangeProblem(1e18), "");
    EXPECT_EQ(units::bandwidthRangeProblem(999.5),
              "expected a bandwidth from 1 KB/s to 1000000 TB/s, found 999.5 B/s");
    EXPECT_NE(units::bandwidthRangeProblem(std::nan("")), "");
    EXPECT_NE(units::bandwidthRangeProblem(1.0000001e18), "");
}

TEST(Units, AcceptedTimes) {
    const TimeCase cases[] = {
        {"936.25 ns", 936250},    {"2 us", 2000000}, {"2 µs", 2000000}, {"1.5 ms", 1500000000},
        {"3 s", 3000000000000LL}, {"500 ps", 500},   {"0 ns", 0},       {"10ns", 10000},
    };
    for (const TimeCase& c : cases)
        EXPECT_EQ(units::parseTime(c.text).ps(), c.ps) << c.text;
}

TEST(Units, RejectedStringsNameTheAcceptedForms) {
    const char* sizes[] = {"1024",  "",        "MiB",    "1 mib", "1 Mb/s", "-1 B",
                           "1.5 B", "one MiB", "1 GiBs", "nan B", "inf B"};
    for (const char* s : sizes) {
        try {
            units::parseSizeBytes(s);
            ADD_FAILURE() << "accepted \"" << s << "\"";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("accepted forms"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(std::string("\"") + s + "\""), std::string::npos);
        }
    }
    const char* rates[] = {"400", "400 GB", "0 GB/s", "100 gbit", "-5 GB/s", "GB/s"};
    for (const char* s : rates)
        EXPECT_THROW(units::parseBandwidthBytesPerSecond(s), Error) << s;
    const char* times[] = {"5", "5 cycles", "5 ns ns", "-2 us", "1 hour"};
    for (const char* s : times)
        EXPECT_THROW(units::parseTime(s), Error) << s;
    // A negative value has its unit: the message says what is wrong, its sign.
    try {
        units::parseSizeBytes("-5 MiB");
        ADD_FAILURE() << "accepted -5 MiB";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("expected a size of 0 or more, found \"-5 MiB\""),
                  std::string::npos)
            << e.what();
    }
}

TEST(Units, FormattingReadsBack) {
    EXPECT_EQ(units::formatSize(1048576), "1 MiB");
    EXPECT_EQ(units::formatSize(4096 + 512), "4.5 KiB");
    EXPECT_EQ(units::formatSize(100), "100 B");
    EXPECT_EQ(units::formatBandwidth(400e9), "400 GB/s");
    EXPECT_EQ(units::formatTime(SimTime::fromPs(936250)), "936.25 ns");
    EXPECT_EQ(units::formatTime(SimTime::fromUs(1500)), "1.5 ms");
    EXPECT_EQ(units::parseSizeBytes(units::formatSize(3 * 1048576)), 3u * 1048576u);
    EXPECT_EQ(units::formatNumber(50.0), "50");
    EXPECT_EQ(units::formatNumber(0.1), "0.1");
}

TEST(Units, MicrosecondsAreAsciiUnlessTheMicroSignIsAsked) {
    EXPECT_EQ(units::formatTime(SimTime::fromNs(117'780)), "117.78 us");
    EXPECT_EQ(units::formatTime(SimTime::fromNs(117'780), units::TimeSpelling::MicroSign),
              "117.78 \u00b5s");
    EXPECT_EQ(units::formatTime(SimTime::fromNs(60'465'800), units::TimeSpelling::MicroSign),
              "60.4658 ms");
}

namespace {

/// Sets a convention for one test and restores the default after it.
class ConventionScope {
public:
    explicit ConventionScope(units::Convention c) { units::setConvention(c); }
    ~ConventionScope() { units::setConvention(units::Convention::AsEntered); }
};

constexpr double kGiB = 1024.0 * 1024 * 1024;

} // namespace

TEST(UnitsFormat, AsEnteredKeepsTheFamilyTheValueIsRoundIn) {
    EXPECT_EQ(units::formatBandwidth(50 * kGiB), "50 GiB/s");
    EXPECT_EQ(units::formatBandwidth(400e9), "400 GB/s");
    EXPECT_EQ(units::formatBandwidth(12.5e9), "12.5 GB/s"); // 100 Gb/s
    EXPECT_EQ(units::formatSize(64u << 20), "64 MiB");
    EXPECT_EQ(units::formatSize(1'000'000'000), "1 GB");
    EXPECT_EQ(units::formatSize(1024), "1 KiB");
    // Round in neither: sizes binary, bandwidths decimal.
    EXPECT_EQ(units::formatSize(123'456'789), "117.738 MiB");
    EXPECT_EQ(units::formatBandwidth(123'456'789), "123.457 MB/s");
}

TEST(UnitsFormat, OneConventionForEverything) {
    {
        ConventionScope scope(units::Convention::Decimal);
        EXPECT_EQ(units::formatBandwidth(50 * kGiB), "53.6871 GB/s");
        EXPECT_EQ(units::formatSize(64u << 20), "67.1089 MB");
    }
    {
        ConventionScope scope(units::Convention::Binary);
        EXPECT_EQ(units::formatBandwidth(400e9), "372.529 GiB/s");
        EXPECT_EQ(units::formatSize(1'000'000'000), "953.674 MiB");
    }
    EXPECT_EQ(units::formatBandwidth(400e9), "400 GB/s");
    EXPECT_EQ(units::parseConvention("binary"), units::Convention::Binary);
    EXPECT_THROW(units::parseConvention("metric"), Error);
}

TEST(UnitsFormat, EdgesNeverUseENotation) {
    EXPECT_EQ(units::formatSize(0), "0 B");
    EXPECT_EQ(units::formatSize(1023), "1023 B");
    EXPECT_EQ(units::formatSize(UINT64_MAX), "16777216 TiB");
    EXPECT_EQ(units::formatTime(SimTime::fromPs(0)), "0 ns");
    EXPECT_EQ(units::formatTime(SimTime::fromPs(1)), "1 ps");
    EXPECT_EQ(units::formatTime(SimTime::fromPs(-2'500'000)), "-2.5 us");
    EXPECT_EQ(units::formatTime(SimTime::fromPs(INT64_MAX)), "9223372 s");
    EXPECT_EQ(units::formatBandwidth(0), "0 B/s");
    EXPECT_EQ(units::formatBandwidth(2e18), "2000000 TB/s");
    EXPECT_EQ(units::formatPlain(0.00001234), "0.00001234");
    EXPECT_EQ(units::formatPlain(1e-9, 3), "0.000000001");
    EXPECT_EQ(units::formatPlain(999999.5), "1000000"); // rounds within %g's range
    EXPECT_EQ(units::formatPlain(1234567.0), "1234567");
    for (double v : {1e-300, 1e-20, 3e-7, 0.5, 7.0, 1e5, 1e15, 1e300}) {
        const std::string text = units::formatPlain(v);
        EXPECT_EQ(text.find('e'), std::string::npos) << v << " -> " << text;
    }
}

TEST(UnitsFormat, ScalesForSideBySideValues) {
    const units::Scale ms = units::timeScale(60.4658e9, units::TimeSpelling::MicroSign);
    EXPECT_EQ(ms.symbol, "ms");
    EXPECT_EQ(units::formatScaled(117.78e6, ms), "0.11778 ms");
    EXPECT_EQ(units::sizeScale(3 * kGiB).symbol, "GiB");
}

TEST(UnitsFormat, CountsAgreeWithTheirNouns) {
    EXPECT_EQ(units::countOf(1, "node"), "1 node");
    EXPECT_EQ(units::countOf(0, "node"), "0 nodes");
    EXPECT_EQ(units::countOf(2, "dimension"), "2 dimensions");
    EXPECT_EQ(units::countOf(3, "switch", "switches"), "3 switches");
}
