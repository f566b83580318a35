#include "cli/PngChart.h"

#include "core/Error.h"
#include "core/Modules.h"
#include "png/SvgPngModule.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace astrolabe::cli {
namespace {

void append(void* context, const char* data, size_t size) {
    static_cast<std::string*>(context)->append(data, size);
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
    std::string tried;
    const auto render = reinterpret_cast<SvgPngRenderFn>(
        openModuleEntry(moduleCandidates(kSvgPngModuleName, "ASTROLABE_PNG_MODULE"),
                        {kSvgPngAbiSymbol, kSvgPngAbi, kSvgPngRenderSymbol, "PNG module"}, tried));
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
