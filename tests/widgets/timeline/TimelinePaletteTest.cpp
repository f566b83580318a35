// The timeline's colours: the colour-difference support checked against published data, then
// the palette's promise that no two legend entries are near each other.
//
// Threshold. CIEDE2000 ~1 is a just-noticeable difference for large patches side by side;
// categorical palettes aim for ~10 and more so that a colour is recognised, not just told apart,
// and small marks need more than large ones (the timeline's bars are 8 px tall and often a few
// px wide). We ask for 15 in normal vision. Under the Machado et al. 2009 simulation of full
// deuteranopia and protanopia (severity 1.0, the worst case of the common forms) a 16-kind
// palette cannot keep that (Okabe–Ito's own orange and yellow are 11.6 apart for a deuteranope):
// we ask for 7.5 there, still well above the threshold of a noticeable difference.
#include "timeline/TimelinePalette.h"

#include "ColorDifference.h"
#include "spec/SystemConfig.h"
#include "timeline/ColorKey.h"

#include <gtest/gtest.h>
#include <iostream>
#include <set>

using namespace astrolabe;
using namespace astrolabe::widgets;
using astrolabe::test::deltaE2000;
using astrolabe::test::Lab;
using astrolabe::test::toLab;
using astrolabe::test::Vision;

namespace {
constexpr double kMinNormal = 15.0;
constexpr double kMinDichromat = 7.5;

struct Closest {
    double distance = 1e9;
    QString first, second;
};

Closest closestPair(const std::vector<TimelinePalette::LegendEntry>& entries, Vision vision) {
    Closest closest;
    for (size_t i = 0; i < entries.size(); ++i)
        for (size_t j = i + 1; j < entries.size(); ++j) {
            const double d =
                deltaE2000(toLab(entries[i].color, vision), toLab(entries[j].color, vision));
            if (d < closest.distance)
                closest = {d, entries[i].label, entries[j].label};
        }
    return closest;
}
} // namespace

TEST(ColorDifference, MatchesSharmaWuDalalTestData) {
    // Sharma, Wu & Dalal 2005, Table 1: pairs 1, 2, 3, 7, 13, 17, 19, 25 (L*, a*, b* -> dE00).
    struct Case {
        Lab x, y;
        double expected;
    };
    const Case cases[] = {
        {{50.0, 2.6772, -79.7751}, {50.0, 0.0, -82.7485}, 2.0425},
        {{50.0, 3.1571, -77.2803}, {50.0, 0.0, -82.7485}, 2.8615},
        {{50.0, 2.8361, -74.0200}, {50.0, 0.0, -82.7485}, 3.4412},
        {{50.0, 0.0, 0.0}, {50.0, -1.0, 2.0}, 2.3669},
        {{50.0, 2.4900, -0.0010}, {50.0, -2.4900, 0.0009}, 7.1792},
        {{50.0, 2.5, 0.0}, {73.0, 25.0, -18.0}, 27.1492},
        {{50.0, 2.5, 0.0}, {61.0, -5.0, 29.0}, 22.8977},
        {{60.2574, -34.0099, 36.2677}, {60.4626, -34.1751, 39.4387}, 1.2644},
    };
    for (const Case& c : cases) {
        EXPECT_NEAR(deltaE2000(c.x, c.y), c.expected, 0.5e-4);
        EXPECT_NEAR(deltaE2000(c.y, c.x), c.expected, 0.5e-4); // symmetric
    }
}

TEST(ColorDifference, SrgbToLabMatchesReferenceValues) {
    // White is L* 100 with no chroma; sRGB red is (53.24, 80.09, 67.20) (Lindbloom's calculator).
    const Lab white = toLab(QColor(255, 255, 255));
    EXPECT_NEAR(white.l, 100.0, 1e-3);
    EXPECT_NEAR(white.a, 0.0, 1e-3);
    EXPECT_NEAR(white.b, 0.0, 1e-3);
    const Lab red = toLab(QColor(255, 0, 0));
    EXPECT_NEAR(red.l, 53.24, 0.01);
    EXPECT_NEAR(red.a, 80.09, 0.01);
    EXPECT_NEAR(red.b, 67.20, 0.01);
    // A deuteranope sees grey as grey: the simulation keeps neutral colours (rows sum to 1).
    const Lab grey = toLab(QColor(128, 128, 128), Vision::Deuteranopia);
    EXPECT_NEAR(grey.a, 0.0, 0.05);
    EXPECT_NEAR(grey.b, 0.0, 0.05);
}

TEST(TimelinePalette, NoTwoLegendEntriesAreNearEachOther) {
    // Any run can hold every kind at once, so every pair of entries is checked.
    const auto entries = TimelinePalette::allEntries();
    ASSERT_EQ(entries.size(), 17u); // 15 kinds, idle, critical path
    const struct {
        Vision vision;
        const char* name;
        double minimum;
    } visions[] = {{Vision::Normal, "normal vision", kMinNormal},
                   {Vision::Deuteranopia, "deuteranopia", kMinDichromat},
                   {Vision::Protanopia, "protanopia", kMinDichromat}};
    for (const auto& v : visions) {
        const Closest c = closestPair(entries, v.vision);
        std::cout << "closest legend pair, " << v.name << ": " << c.first.toStdString() << " / "
                  << c.second.toStdString() << ", dE00 " << c.distance << "\n";
        EXPECT_GE(c.distance, v.minimum)
            << v.name << ": " << c.first.toStdString() << " / " << c.second.toStdString();
    }
}

TEST(TimelinePalette, TheCommonKindsAreOkabeIto) {
    const auto color = [](uint8_t key) { return TimelinePalette::color(key).name(); };
    EXPECT_EQ(color(colorkey::Compute), QStringLiteral("#0072b2"));
    EXPECT_EQ(color(colorkey::Memory), QStringLiteral("#f0e442"));
    EXPECT_EQ(color(colorkey::SendRecv), QStringLiteral("#009e73"));
    EXPECT_EQ(color(colorkey::forCollective(CollectiveType::AllReduce)), QStringLiteral("#e69f00"));
    EXPECT_EQ(color(colorkey::forCollective(CollectiveType::AllGather)), QStringLiteral("#56b4e9"));
    EXPECT_EQ(color(colorkey::forCollective(CollectiveType::ReduceScatter)),
              QStringLiteral("#d55e00"));
    EXPECT_EQ(color(colorkey::forCollective(CollectiveType::AllToAll)), QStringLiteral("#cc79a7"));
}

TEST(TimelinePalette, EveryKeyIsDrawnInTheColourOfItsLegendEntry) {
    std::set<QRgb> legendColors;
    for (const auto& entry : TimelinePalette::allEntries())
        if (!entry.outline)
            legendColors.insert(entry.color.rgb());
    std::vector<uint8_t> keys = {colorkey::Compute, colorkey::Memory,   colorkey::Cpu,
                                 colorkey::Other,   colorkey::SendRecv, colorkey::CommUnknown};
    for (int type = 0; type < 10; ++type)
        keys.push_back(colorkey::forCollective(static_cast<CollectiveType>(type)));
    for (int key = colorkey::PhaseBase; key <= colorkey::PhaseLast; ++key)
        keys.push_back(static_cast<uint8_t>(key));
    for (uint8_t key : keys)
        EXPECT_TRUE(legendColors.count(TimelinePalette::color(key).rgb())) << int(key);
    // A phase takes the colour of what it does, whatever its parity.
    EXPECT_EQ(TimelinePalette::color(
                  colorkey::forPhase(static_cast<uint8_t>(CollectiveKind::ReduceScatter), 1)),
              TimelinePalette::color(colorkey::forCollective(CollectiveType::ReduceScatter)));
    EXPECT_NE(colorkey::forPhase(0, 0), colorkey::forPhase(0, 1)); // adjacent phases stay apart
}

TEST(TimelinePalette, CriticalPathIsAnOutlineNotAFillColour) {
    const auto entries = TimelinePalette::allEntries();
    int outlines = 0;
    for (const auto& entry : entries) {
        outlines += entry.outline;
        if (!entry.outline) {
            EXPECT_NE(entry.color, TimelinePalette::criticalOutline()) << entry.label.toStdString();
        }
    }
    EXPECT_EQ(outlines, 1);
}

TEST(TimelinePalette, LegendListsThePresentKindsOnceInAFixedOrder) {
    const std::vector<uint8_t> keys = {
        colorkey::forCollective(CollectiveType::AllReduce), colorkey::Compute,
        colorkey::forPhase(static_cast<uint8_t>(CollectiveKind::AllReduce), 1), colorkey::Compute};
    std::vector<QString> labels;
    for (const auto& entry : TimelinePalette::legend(keys, false, false))
        labels.push_back(entry.label);
    EXPECT_EQ(labels,
              (std::vector<QString>{QStringLiteral("compute"), QStringLiteral("all-reduce")}));
    EXPECT_EQ(TimelinePalette::legend({}, true, true).size(), 2u); // idle, critical path
}
