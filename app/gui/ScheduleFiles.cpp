#include "gui/ScheduleFiles.h"

#include "core/Error.h"
#include "core/OutputFile.h"
#include "tacos/Evaluate.h"
#include "tacos/ScheduleExport.h"

#include <filesystem>

namespace astrolabe::gui {

std::string writeScheduleFiles(const Schedule& schedule, const std::string& path) {
    const std::filesystem::path file(path);
    if (file.extension() != ".xml") {
        writeScheduleEt(schedule, path);
        return path;
    }
    const std::string xml =
        scheduleMscclXml(schedule, "tacos_" + std::string(synthesisKindName(schedule.kind)));
    writeOutputFile(path, "the MSCCL-IR XML", [&xml](std::ostream& out) { out << xml; });
    return path;
}

std::string writeScheduleBesideProject(const Schedule& schedule, const std::string& projectFile) {
    const std::filesystem::path folder = std::filesystem::path(projectFile).parent_path();
    const std::string stem = "tacos-" + std::string(synthesisKindName(schedule.kind));
    try {
        return writeScheduleFiles(schedule, (folder / (stem + ".xml")).string());
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::Unsupported)
            throw;
        return writeScheduleFiles(schedule, (folder / stem).string());
    }
}

} // namespace astrolabe::gui
