// astrolabe-svg-png.so: the C entry points of SvgPngModule.h over pngFromSvg (SvgRender.h).

#include "png/SvgPngModule.h"
#include "png/SvgRender.h"

#include <QGuiApplication>
#include <memory>

namespace {

/// Text needs a QGuiApplication (the font database); the command-line program has none, so the
/// module makes one on the offscreen platform, which needs no display, and keeps it for the
/// process's life. Qt's own notes (no XDG_RUNTIME_DIR, and the like) are not the program's
/// output: they are dropped. Whatever fails is reported through the entry point's result.
void ensureGuiApplication() {
    if (QCoreApplication::instance() != nullptr)
        return;
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext&, const QString&) {});
    static int argc = 3;
    static char name[] = "astrolabe-cli";
    static char option[] = "-platform";
    static char platform[] = "offscreen";
    static char* argv[] = {name, option, platform, nullptr};
    static const std::unique_ptr<QGuiApplication> app =
        std::make_unique<QGuiApplication>(argc, argv);
}

} // namespace

extern "C" __attribute__((visibility("default"))) int astrolabe_svg_png_abi() {
    return kSvgPngAbi;
}

extern "C" __attribute__((visibility("default"))) int
astrolabe_svg_png_render(const char* svg, size_t size, double scale, SvgPngSink sink, void* context,
                         SvgPngSink error, void* errorContext) {
    ensureGuiApplication();
    QString why;
    const QByteArray png =
        astrolabe::pngFromSvg(QByteArray(svg, static_cast<qsizetype>(size)), scale, &why);
    if (png.isEmpty()) {
        const QByteArray text = why.toUtf8();
        error(errorContext, text.constData(), static_cast<size_t>(text.size()));
        return 1;
    }
    sink(context, png.constData(), static_cast<size_t>(png.size()));
    return 0;
}
