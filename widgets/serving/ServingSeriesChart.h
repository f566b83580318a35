#pragma once
// Output tokens per second and KV-cache occupancy over a serving run, from its occupancy
// samples: throughput (left scale, tokens/s: the tokens emitted between two samples over
// their distance) and occupancy (right scale, percent of every replica's KV blocks).

#include "serving/ServingResult.h"

#include <QWidget>
#include <memory>
#include <vector>

namespace astrolabe::widgets {

struct ServingSeries {
    std::vector<double> seconds;
    std::vector<double> tokensPerSecond;
    std::vector<double> kvPercent;
};
/// The series of the samples: one point per sample after the first.
ServingSeries servingSeries(const std::vector<serving::OccupancySample>& samples);

/// The throughput scale's ticks under `peak` (the scale's top): 0 and multiples of the largest
/// step in {1, 2, 5} x 10^k at most half the peak, 3 to 5 ticks (2,798 tokens/s: 0, 1,000,
/// 2,000).
std::vector<double> throughputTicks(double peak);

class ServingSeriesChart : public QWidget {
    Q_OBJECT
public:
    explicit ServingSeriesChart(QWidget* parent = nullptr);
    void setResult(std::shared_ptr<const serving::ServingResult> result);
    const ServingSeries& series() const { return m_series; }
    QSize sizeHint() const override { return {400, 200}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    ServingSeries m_series;
};

} // namespace astrolabe::widgets
