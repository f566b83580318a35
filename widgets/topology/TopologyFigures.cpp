#include "topology/TopologyFigures.h"

#include "core/Units.h"
#include "topology/MemoryTierMath.h"
#include "topology/TopologyMath.h"
#include "topology/UnitChoices.h"

#include <QLocale>

namespace astrolabe::widgets {

namespace {
// "1600 GiB/s" must not wrap between the number and its unit, nor after the unit's slash
// (a word joiner there: the text layout may break a line after a slash).
QString nonBreaking(QString text) {
    return text.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"))
        .replace(QLatin1Char('/'), QStringLiteral("/&#8288;"));
}
} // namespace

TopologyFigures::TopologyFigures(QWidget* parent)
    : QLabel(parent) {
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setMargin(6);
    setToolTip(tr("Injection per NPU = \u03a3 links(d) \u00b7 bw(d), with Ring 2 links, "
                  "FullyConnected n\u22121, Switch 1.\nBisection = min over d of "
                  "(N / n_d) \u00b7 cut(d), with Ring 2\u00b7bw, FullyConnected "
                  "\u230an/2\u230b\u00b7\u2308n/2\u2309\u00b7bw, Switch \u230an/2\u230b\u00b7bw."
                  "\nMemory per NPU, all NPUs accessing: per NPU B, per node B / NPUs per node, "
                  "shared pool B / N, pooled min(F, B / \u2308N / G\u2309)."));
}

void TopologyFigures::setPlatform(const PlatformSpec& platform, const RemoteMemoryConfig& memory) {
    const int64_t n = npuCount64(platform);
    QString html =
        tr("<b>%1</b> NPUs &nbsp;\u00b7&nbsp; injection <b>%2</b> per NPU "
           "&nbsp;\u00b7&nbsp; bisection <b>%3</b>")
            .arg(QLocale().toString(static_cast<qlonglong>(n)))
            .arg(nonBreaking(describeBandwidth(injectionBandwidthBytesPerSecond(platform))))
            .arg(nonBreaking(describeBandwidth(bisectionBandwidthBytesPerSecond(platform))));
    if (hasMemoryTier(memory))
        html += tr("<br>memory tier <b>%1</b> &nbsp;\u00b7&nbsp; <b>%2</b> per NPU with all "
                   "NPUs accessing")
                    .arg(QString::fromStdString(memoryTypeLabel(memory.type)).toHtmlEscaped())
                    .arg(nonBreaking(QString::fromStdString(
                        units::formatBandwidth(memoryBandwidthPerNpu(memory, n)))));
    const std::vector<PlatformProblem> problems = platformProblems(platform);
    std::vector<std::string> messages;
    for (const PlatformProblem& p : problems)
        messages.push_back(p.message);
    for (const std::string& m : memoryProblems(memory, platform))
        messages.push_back(m);
    m_problems = !messages.empty();
    for (const std::string& m : messages)
        html += QStringLiteral("<br><span style='color:#c0392b'>\u26a0 %1</span>")
                    .arg(QString::fromStdString(m).toHtmlEscaped());
    setText(html);
}

} // namespace astrolabe::widgets
