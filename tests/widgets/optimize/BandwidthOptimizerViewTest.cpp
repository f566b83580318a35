// The "Optimize bandwidth" panel: a front fills the table and the scatter, the fastest point is
// selected, Apply asks for the selected point's bandwidths and Optimize for the request.
#include "optimize/BandwidthOptimizerView.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QValueAxis>
#include <cmath>
#include <gtest/gtest.h>

using namespace astrolabe::widgets;
using astrolabe::optimize::EvaluatedAllocation;

namespace {

EvaluatedAllocation point(std::vector<double> gbps, double seconds, double dollars) {
    EvaluatedAllocation a;
    a.gbps = std::move(gbps);
    a.simulatedSeconds = seconds;
    a.costDollars = dollars;
    return a;
}

} // namespace

TEST(BandwidthOptimizerView, FrontFillsTableAndScatterAndSelectsTheFastest) {
    BandwidthOptimizerView view;
    view.setDimensions({"dim0 Ring 8", "dim1 Switch 4"}, 300);
    EXPECT_DOUBLE_EQ(view.totalBox()->value(), 300);
    EXPECT_FALSE(view.applyButton()->isEnabled()) << "nothing to apply yet";
    view.setFront({point({40, 10}, 2e-3, 1.0e6), point({200, 100}, 1e-3, 1.2e6)});
    ASSERT_EQ(view.model()->rowCount(), 2);
    EXPECT_EQ(view.model()->columnCount(), 5); // two dimensions, cost, time, perf/cost
    EXPECT_EQ(view.model()->headerData(0, Qt::Horizontal).toString(), "dim0 Ring 8 (GB/s)");
    EXPECT_EQ(view.model()->index(1, 0).data().toString(), "200.0");
    EXPECT_EQ(view.model()->index(1, 3).data().toString(), "1.0000"); // 1 ms
    EXPECT_EQ(view.scatter()->count(), 2);
    EXPECT_EQ(view.selectedPoint(), 1);
    EXPECT_TRUE(view.applyButton()->isEnabled());
}

TEST(BandwidthOptimizerView, ApplyAndOptimizeCarryTheirValues) {
    BandwidthOptimizerView view;
    view.setDimensions({"dim0", "dim1"}, 300);
    view.setFront({point({40, 10}, 2e-3, 1.0e6), point({200, 100}, 1e-3, 1.2e6)});
    QSignalSpy apply(&view, &BandwidthOptimizerView::applyRequested);
    view.table()->selectRow(0);
    view.applyButton()->click();
    ASSERT_EQ(apply.count(), 1);
    EXPECT_EQ(apply.at(0).at(0).value<std::vector<double>>(), (std::vector<double>{40, 10}));

    QSignalSpy optimize(&view, &BandwidthOptimizerView::optimizeRequested);
    view.totalBox()->setValue(450);
    view.pointsBox()->setValue(7);
    view.optimizeButton()->click();
    ASSERT_EQ(optimize.count(), 1);
    EXPECT_DOUBLE_EQ(optimize.at(0).at(0).toDouble(), 450);
    EXPECT_EQ(optimize.at(0).at(1).toInt(), 7);

    view.setRunning(true);
    EXPECT_FALSE(view.optimizeButton()->isEnabled());
    EXPECT_FALSE(view.applyButton()->isEnabled());
    view.setRunning(false);
    EXPECT_TRUE(view.applyButton()->isEnabled());
}

TEST(BandwidthOptimizerView, PricesAndWorkloadAreEditedAndLockedWhileRunning) {
    BandwidthOptimizerView view;
    const astrolabe::optimize::ComponentPrices defaults;
    EXPECT_DOUBLE_EQ(view.prices().nicDollarsPerGBps, defaults.nicDollarsPerGBps);
    EXPECT_DOUBLE_EQ(view.prices().npuDollars, defaults.npuDollars);
    astrolabe::optimize::ComponentPrices quoted;
    quoted.switchPortDollarsPerGBps = 7.5;
    quoted.npuDollars = 30000;
    view.setPrices(quoted);
    EXPECT_DOUBLE_EQ(view.prices().switchPortDollarsPerGBps, 7.5);
    EXPECT_DOUBLE_EQ(view.prices().npuDollars, 30000);
    EXPECT_FALSE(view.workload()) << "the project's own workload by default";
    EXPECT_FALSE(view.sizeBox()->isEnabled());
    view.workloadBox()->setCurrentIndex(view.workloadBox()->findData(6)); // all-to-all
    EXPECT_TRUE(view.sizeBox()->isEnabled());
    view.sizeBox()->setValue(0.5);
    ASSERT_TRUE(view.workload());
    EXPECT_EQ(view.workload()->collective, 6);
    EXPECT_EQ(view.workload()->sizeBytes, 524288u);
    view.setRunning(true);
    EXPECT_FALSE(view.workloadBox()->isEnabled());
    EXPECT_FALSE(view.sizeBox()->isEnabled());
    view.setRunning(false);
    EXPECT_TRUE(view.sizeBox()->isEnabled());
}

// The front's axes had ticks at fifths of the padded span, 0.830, 0.842, ... (issue #53,
// Researcher 6): both axes now start, end and step at round numbers ({1, 2, 5} x 10^k steps
// or fractions thereof that QValueAxis::applyNiceNumbers picks), so every tick reads short.
TEST(BandwidthOptimizerView, AxisTicksAreRoundNumbers) {
    BandwidthOptimizerView view;
    view.setDimensions({"dim0 Ring 8", "dim1 Switch 4"}, 300);
    view.setFront({point({40, 10}, 0.8412e-3, 0.8331e6), point({120, 60}, 0.7903e-3, 0.9417e6),
                   point({200, 100}, 0.7721e-3, 1.0127e6)});
    for (QAbstractAxis* a : view.scatter()->attachedAxes()) {
        auto* axis = qobject_cast<QValueAxis*>(a);
        ASSERT_NE(axis, nullptr);
        ASSERT_GE(axis->tickCount(), 2);
        const double step = (axis->max() - axis->min()) / (axis->tickCount() - 1);
        // A round step: its mantissa is 1, 2, 2.5 or 5; every tick a whole multiple of it.
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
                    std::abs(mantissa - 2.5) < 1e-9 || std::abs(mantissa - 5) < 1e-9)
            << "step " << step;
        const double first = axis->min() / step;
        EXPECT_NEAR(first, std::round(first), 1e-6) << "min " << axis->min();
    }
}
