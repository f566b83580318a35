#include "serving/RateSearch.h"

#include "core/Error.h"
#include "serving/ServingRun.h"

#include <cmath>

namespace astrolabe::serving {
namespace {

class Search {
public:
    Search(const SimulationSpec& spec, const RateSearchOptions& options,
           const std::function<void(const RateProbe&)>& onProbe)
        : m_spec(spec)
        , m_options(options)
        , m_onProbe(onProbe) {
        m_spec.serving.trace.clear();
    }

    bool probe(double rate) {
        if (int(m_result.probes.size()) >= m_options.maxProbes)
            throw Stop{};
        m_spec.serving.rate = rate;
        RateProbe p;
        p.rate = rate;
        p.summary = runServing(m_spec).summary;
        p.meets = p.summary.sloAttainment >= m_options.attainment;
        m_result.probes.push_back(p);
        if (m_onProbe)
            m_onProbe(p);
        if (p.meets && rate > m_result.rate)
            m_result.rate = rate;
        return p.meets;
    }

    RateSearchResult run() {
        try {
            double meets = 0, fails = 0;
            const double start = m_spec.serving.rate;
            if (probe(start)) {
                meets = start;
                for (fails = start * 2; probe(fails); fails *= 2)
                    meets = fails;
            } else {
                fails = start;
                for (meets = start / 2; !probe(meets); meets /= 2) {
                    fails = meets;
                    if (meets < start * 1e-6)
                        return std::move(m_result); // not even a trickle meets the SLOs
                }
            }
            while (fails - meets > m_options.tolerance * meets) {
                const double middle = (meets + fails) / 2;
                if (probe(middle))
                    meets = middle;
                else
                    fails = middle;
            }
            m_result.converged = true;
        } catch (const Stop&) {
        }
        if (m_options.confirmFactor > 1 && m_result.rate > 0) {
            SimulationSpec longer = m_spec;
            longer.serving.rate = m_result.rate;
            longer.serving.durationNs *= m_options.confirmFactor;
            RateProbe p;
            p.rate = m_result.rate;
            p.summary = runServing(longer).summary;
            p.meets = p.summary.sloAttainment >= m_options.attainment;
            m_result.confirmation = p;
            m_result.confirmationDurationSeconds = longer.serving.durationNs * 1e-9;
        }
        return std::move(m_result);
    }

private:
    struct Stop {};
    SimulationSpec m_spec;
    RateSearchOptions m_options;
    const std::function<void(const RateProbe&)>& m_onProbe;
    RateSearchResult m_result;
};

} // namespace

RateSearchResult searchRate(const SimulationSpec& spec, const RateSearchOptions& options,
                            const std::function<void(const RateProbe&)>& onProbe) {
    if (!(options.attainment > 0 && options.attainment <= 1))
        throw Error(ErrorKind::Validation,
                    "the rate search's attainment must be in (0, 1], found " +
                        std::to_string(options.attainment),
                    {}, "give the share of requests that must meet both SLOs, e.g. 0.9");
    if (!(options.tolerance > 0) || options.maxProbes < 2)
        throw Error(ErrorKind::Validation,
                    "the rate search needs a tolerance > 0 and at least 2 probes");
    if (!spec.serving.trace.empty() || spec.serving.arrival == "concurrency")
        throw Error(
            ErrorKind::Validation,
            "the rate search varies serving.rate; this project's requests come from " +
                std::string(spec.serving.trace.empty() ? "a closed loop (concurrency)" : "a trace"),
            SourceLocation{spec.sourceFile, 0, 0, "serving.arrival"},
            "use arrival: poisson or gamma");
    if (!(spec.serving.rate > 0))
        throw Error(ErrorKind::Validation,
                    "the rate search starts from serving.rate, found " +
                        std::to_string(spec.serving.rate),
                    SourceLocation{spec.sourceFile, 0, 0, "serving.rate"});
    return Search(spec, options, onProbe).run();
}

} // namespace astrolabe::serving
