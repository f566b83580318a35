#include "hardware/KernelCurves.h"

#include "core/CsvTable.h"
#include "core/Error.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace astrolabe::hardware {

// The text of resources/compute/*.csv, compiled in by CMake (KernelData.cpp.in).
extern const char* const kGemmRatesCsv;
extern const char* const kGemmShapeCsv;

MonotoneCurve::MonotoneCurve(std::vector<double> x, std::vector<double> y)
    : m_x(std::move(x)) {
    if (m_x.empty() || m_x.size() != y.size())
        throw std::invalid_argument("a curve needs as many y as x, and at least one point");
    for (size_t i = 0; i < m_x.size(); ++i)
        if (!(m_x[i] > 0) || (i > 0 && !(m_x[i] > m_x[i - 1])))
            throw std::invalid_argument("curve x must be > 0 and strictly increasing");
    // Pool adjacent violators: blocks of (mean, count), merged while a block's mean falls below
    // the one before it.
    std::vector<std::pair<double, size_t>> blocks;
    for (double v : y) {
        blocks.emplace_back(v, 1);
        while (blocks.size() > 1 && blocks.back().first < blocks[blocks.size() - 2].first) {
            const auto [mean, count] = blocks.back();
            blocks.pop_back();
            auto& prev = blocks.back();
            prev.first = (prev.first * double(prev.second) + mean * double(count)) /
                         double(prev.second + count);
            prev.second += count;
        }
    }
    for (const auto& [mean, count] : blocks)
        m_y.insert(m_y.end(), count, mean);
}

double MonotoneCurve::at(double x) const {
    if (m_x.empty())
        return 0;
    if (!(x > m_x.front()))
        return m_y.front();
    if (x >= m_x.back())
        return m_y.back();
    const size_t hi = size_t(std::upper_bound(m_x.begin(), m_x.end(), x) - m_x.begin());
    const size_t lo = hi - 1;
    const double t = (std::log(x) - std::log(m_x[lo])) / (std::log(m_x[hi]) - std::log(m_x[lo]));
    return m_y[lo] + t * (m_y[hi] - m_y[lo]);
}

std::vector<GemmRate> parseGemmRates(const std::string& text, const std::string& file) {
    static const std::vector<std::string> columns{"accelerator",        "precision",
                                                  "gemm_tflops",        "flash_fraction",
                                                  "sustained_fraction", "source"};
    std::vector<GemmRate> out;
    readCsvTable(text, file, columns, [&](const std::vector<std::string>& f, int line) {
        GemmRate r;
        r.accelerator = f[0];
        r.precision = f[1];
        r.gemmTflops = csvNumber(f[2], columns[2], file, line, true);
        r.flashFraction = csvNumber(f[3], columns[3], file, line, true);
        r.sustainedFraction = csvNumber(f[4], columns[4], file, line, true);
        r.source = f[5];
        auto fail = [&](const std::string& message) {
            throw Error(ErrorKind::Input, message, SourceLocation{file, line, 0, {}});
        };
        if (r.flashFraction > 1)
            fail("flash_fraction: expected a fraction of the peak in (0, 1], found " + f[3]);
        if (r.sustainedFraction > 1)
            fail("sustained_fraction: expected a share of the measured rate in (0, 1], found " +
                 f[4]);
        if (r.source.empty())
            fail("source: expected the measurement behind the row, found nothing");
        for (const GemmRate& other : out)
            if (other.accelerator == r.accelerator && other.precision == r.precision)
                fail("accelerator: \"" + r.accelerator + "\" at " + r.precision +
                     " is listed twice");
        out.push_back(std::move(r));
    });
    return out;
}

MonotoneCurve parseGemmShape(const std::string& text, const std::string& file) {
    static const std::vector<std::string> columns{"ideal_us", "fraction", "batch", "m_n_k",
                                                  "measured_tflops"};
    std::vector<double> x, y;
    readCsvTable(text, file, columns, [&](const std::vector<std::string>& f, int line) {
        const double ideal = csvNumber(f[0], columns[0], file, line, true);
        const double fraction = csvNumber(f[1], columns[1], file, line, true);
        if (!x.empty() && !(ideal > x.back()))
            throw Error(ErrorKind::Input,
                        "ideal_us: expected a value above the previous row's " +
                            std::to_string(x.back()) + ", found " + f[0],
                        SourceLocation{file, line, 0, {}});
        if (fraction > 1.05)
            throw Error(ErrorKind::Input,
                        "fraction: expected a fraction of the achieved rate (<= 1.05), found " +
                            f[1],
                        SourceLocation{file, line, 0, {}});
        x.push_back(ideal);
        y.push_back(fraction);
    });
    if (x.empty())
        throw Error(ErrorKind::Input, "expected at least one point, found none",
                    SourceLocation{file, 0, 0, {}});
    return MonotoneCurve(std::move(x), std::move(y));
}

const std::vector<GemmRate>& gemmRates() {
    static const std::vector<GemmRate> all =
        parseGemmRates(kGemmRatesCsv, "resources/compute/gemm-rates.csv");
    return all;
}

const GemmRate* findGemmRate(const std::string& accelerator, const std::string& precision) {
    const std::string p = precision == "fp16" ? "bf16" : precision;
    for (const GemmRate& r : gemmRates())
        if (r.accelerator == accelerator && r.precision == p)
            return &r;
    return nullptr;
}

const MonotoneCurve& gemmShapeCurve() {
    static const MonotoneCurve curve =
        parseGemmShape(kGemmShapeCsv, "resources/compute/gemm-shape.csv");
    return curve;
}

} // namespace astrolabe::hardware
