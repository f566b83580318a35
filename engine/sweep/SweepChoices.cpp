#include "sweep/SweepChoices.h"

#include <algorithm>
#include <numeric>

namespace astrolabe {
namespace {

/// SplitMix64: small, fast, and the same sequence on every platform and compiler (the
/// standard library's distributions are not), so a seed names one sample everywhere.
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed)
        : m_state(seed) {}
    uint64_t next() {
        uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; } ///< [0, 1)
    size_t below(size_t n) {
        return std::min(n - 1, static_cast<size_t>(uniform() * static_cast<double>(n)));
    }

private:
    uint64_t m_state;
};

/// A sample's draws, `count` x groups, in the order drawn (repeats included).
std::vector<uint32_t> sampleChoices(const SweepFile& sweep) {
    const size_t groups = sweep.groups.size(), count = sweep.sampling.count;
    SplitMix64 rng(sweep.sampling.seed);
    std::vector<uint32_t> choices(count * groups);
    if (sweep.sampling.method == SweepSampling::Method::Random) {
        for (size_t k = 0; k < count; ++k)
            for (size_t g = 0; g < groups; ++g)
                choices[k * groups + g] = static_cast<uint32_t>(rng.below(sweep.groups[g].size()));
        return choices;
    }
    // Latin hypercube: each group's range is cut into `count` equal strata and every stratum
    // is used exactly once, in a random order per group.
    std::vector<size_t> strata(count);
    for (size_t g = 0; g < groups; ++g) {
        std::iota(strata.begin(), strata.end(), 0);
        for (size_t i = count; i > 1; --i)
            std::swap(strata[i - 1], strata[rng.below(i)]);
        const double size = static_cast<double>(sweep.groups[g].size());
        for (size_t k = 0; k < count; ++k) {
            const double u =
                (static_cast<double>(strata[k]) + rng.uniform()) / static_cast<double>(count);
            choices[k * groups + g] = static_cast<uint32_t>(
                std::min(sweep.groups[g].size() - 1, static_cast<size_t>(u * size)));
        }
    }
    return choices;
}

/// Drops the repeated rows of `choices` (rows of `groups` values), keeping each first draw in
/// its place: one sort of row numbers, O(n log n) comparisons and no allocation per row.
void dropRepeats(std::vector<uint32_t>& choices, size_t groups) {
    const size_t rows = groups == 0 ? 0 : choices.size() / groups;
    const auto row = [&](size_t r) { return choices.begin() + static_cast<ptrdiff_t>(r * groups); };
    std::vector<size_t> order(rows);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return std::lexicographical_compare(row(a), row(a) + static_cast<ptrdiff_t>(groups), row(b),
                                            row(b) + static_cast<ptrdiff_t>(groups));
    });
    std::vector<char> repeat(rows, 0);
    for (size_t i = 1; i < rows; ++i)
        repeat[order[i]] = std::equal(row(order[i]), row(order[i]) + static_cast<ptrdiff_t>(groups),
                                      row(order[i - 1]));
    size_t kept = 0;
    for (size_t r = 0; r < rows; ++r)
        if (!repeat[r])
            std::copy(row(r), row(r) + static_cast<ptrdiff_t>(groups), row(kept++));
    choices.resize(kept * groups);
}

} // namespace

std::vector<uint32_t> pointChoices(const SweepFile& sweep) {
    const size_t groups = sweep.groups.size();
    if (sweep.sampling.method != SweepSampling::Method::All) {
        std::vector<uint32_t> choices = sampleChoices(sweep);
        dropRepeats(choices, groups);
        return choices;
    }
    size_t total = groups == 0 ? 0 : 1;
    for (const SweepGroup& g : sweep.groups)
        total *= g.size();
    std::vector<uint32_t> choices(total * groups);
    for (size_t index = 0; index < total; ++index) {
        size_t rest = index;
        for (size_t g = groups; g-- > 0;) {
            choices[index * groups + g] = static_cast<uint32_t>(rest % sweep.groups[g].size());
            rest /= sweep.groups[g].size();
        }
    }
    return choices;
}

} // namespace astrolabe
