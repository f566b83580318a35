#include "cli/PngChart.h"

#include "core/Error.h"
#include "core/Modules.h"
#include "png/SvgPngModule.h"

#include <algorithm>
#include <cctype>
#include <dlfcn.h>
#include <filesystem>
#include <system_error>

namespace astrolabe::cli {
namespace {

void append(void* context, const char* data, size_t size) {
    static_cast<std::string*>(context)->append(data, size);
}

/// Opens one candidate; empty on success (entry point in `render`), else why it failed.
std::string tryOpen(const std::string& path, SvgPngRenderFn& render) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return "no such file";
    // Never closed: Qt keeps process-wide state (the application object the module makes).
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr)
        return dlErrorText();
    const auto abi = reinterpret_cast<SvgPngAbiFn>(dlsym(handle, kSvgPngAbiSymbol));
    const auto entry = reinterpret_cast<SvgPngRenderFn>(dlsym(handle, kSvgPngRenderSymbol));
    if (abi == nullptr || entry == nullptr)
        return std::string("not the PNG module: no ") + kSvgPngAbiSymbol + " or " +
               kSvgPngRenderSymbol;
    if (abi() != kSvgPngAbi)
        return "built for another version of Astrolabe (interface " + std::to_string(abi()) +
               ", this program expects " + std::to_string(kSvgPngAbi) + ")";
    render = entry;
    return {};
}

} // namespace

bool wantsPng(const std::string& path) {
    const std::string extension = std::filesystem::path(path).extension().string();
    return extension.size() == 4 &&
           std::equal(extension.begin(), extension.end(), ".png", [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == b;
           });
}

std::string renderPngChart(const std::string& svg, double scale) {
    SvgPngRenderFn render = nullptr;
    std::string tried;
    for (const std::string& path : moduleCandidates(kSvgPngModuleName, "ASTROLABE_PNG_MODULE")) {
        const std::string why = tryOpen(path, render);
        if (render != nullptr)
            break;
        tried += "\n  " + path + ": " + why;
    }
    if (render == nullptr)
        throw Error(ErrorKind::Unsupported,
                    std::string("a PNG chart is drawn by the module ") + kSvgPngModuleName +
                        " (Qt's SVG renderer), and it could not be loaded. Tried:" + tried,
                    {},
                    "name the chart '.svg' (written without Qt), build with the GUI (which "
                    "builds the module), or set ASTROLABE_PNG_MODULE to the module's path");
    std::string png, why;
    if (render(svg.data(), svg.size(), scale, append, &png, append, &why) != 0)
        throw Error(ErrorKind::Validation, "the chart could not be drawn as PNG: " + why);
    return png;
}

} // namespace astrolabe::cli
