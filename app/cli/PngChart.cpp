#include "cli/PngChart.h"

#include "core/Error.h"
#include "core/Modules.h"
#include "png/SvgPngModule.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>

namespace astrolabe::cli {
namespace {

void append(void* context, const char* data, size_t size) {
    static_cast<std::string*>(context)->append(data, size);
}

} // namespace

namespace {

bool hasExtension(const std::string& path, std::string_view wanted) {
    const std::string extension = std::filesystem::path(path).extension().string();
    return extension.size() == wanted.size() &&
           std::equal(extension.begin(), extension.end(), wanted.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == b;
           });
}

} // namespace

bool wantsPng(const std::string& path) {
    return hasExtension(path, ".png");
}

bool wantsSvg(const std::string& path) {
    return hasExtension(path, ".svg");
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
