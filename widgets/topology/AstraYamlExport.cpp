#include "topology/AstraYamlExport.h"

#include "astra/AstraNetworkConfig.h"
#include "core/Error.h"
#include "topology/TopologyMath.h"

namespace astrolabe::widgets {

std::string astraNetworkYaml(const PlatformSpec& platform) {
    const std::vector<PlatformProblem> problems = platformProblems(platform);
    if (!problems.empty()) {
        std::string message = "cannot export an invalid platform:";
        for (const PlatformProblem& p : problems)
            message += " " + p.message + ";";
        message.pop_back();
        throw Error(ErrorKind::Validation, message, {},
                    "fix the dimensions marked in red in the topology editor");
    }
    // The engine's writer: the editor and `astrolabe-cli` write the same file.
    return writeAstraNetworkYaml(platform);
}

} // namespace astrolabe::widgets
