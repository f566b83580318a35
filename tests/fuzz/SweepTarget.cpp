// Sweep files (docs/sweeps.md): the reader, the constraint expressions and, for sweeps of a
// modest size, the expansion into points.
#include "FuzzTarget.h"
#include "project/SweepFile.h"
#include "sweep/SweepExpression.h"
#include "sweep/SweepPlan.h"

ASTROLABE_FUZZ_TARGET(sweep) {
    const astrolabe::SweepFile sweep = astrolabe::parseSweepFile(std::string(input), "fuzz.yaml");
    for (const astrolabe::SweepConstraint& c : sweep.constraints) {
        const astrolabe::SweepExpression expression(c.expression);
        (void)expression.holds([](const std::string&) { return astrolabe::SweepValue(2.0); });
    }
    double points = 1;
    for (const astrolabe::SweepGroup& g : sweep.groups)
        points *= static_cast<double>(g.size());
    // Expanded only when small: the whole product, or the sample drawn from it.
    const bool sampled = sweep.sampling.method != astrolabe::SweepSampling::Method::All;
    if (sampled ? sweep.sampling.count <= 10000 : points <= 10000)
        (void)astrolabe::expandSweep(sweep);
}
