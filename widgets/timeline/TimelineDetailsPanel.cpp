#include "timeline/TimelineDetailsPanel.h"

#include "core/Units.h"
#include "spec/SystemConfig.h"
#include "timeline/TimelineText.h"

#include <QMimeData>
#include <QTextDocumentFragment>

namespace astrolabe::widgets {

QString TimelineDetailsPanel::breakableName(const QString& name) {
    // Identifiers join their words with separators or capitals ("layer_12.attn/qkvProj");
    // a zero-width space after each is a line-break opportunity that adds nothing visible.
    static const QString separators = QStringLiteral("_./:");
    QString out;
    out.reserve(name.size() + name.size() / 4);
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name[i];
        out += c;
        const bool last = i + 1 == name.size();
        if (last)
            break;
        // A capitalised word starts at an upper-case letter followed by a lower-case one:
        // "qkvProj" breaks before "Proj", "1MiB" not before "B".
        const bool capitalisedWord =
            c.isLower() && name[i + 1].isUpper() && i + 2 < name.size() && name[i + 2].isLower();
        if (separators.contains(c) || capitalisedWord)
            out += QChar(0x200b);
    }
    return out;
}

TimelineDetailsPanel::TimelineDetailsPanel(QWidget* parent)
    : QTextBrowser(parent) {
    setOpenLinks(false);
    setMinimumWidth(220);
    // Lines break between words only; node names get break points at their own word
    // boundaries (breakableName), so a long name wraps instead of being cut mid-word.
    setWordWrapMode(QTextOption::WordWrap);
    setLineWrapMode(QTextEdit::WidgetWidth);
    showSummary();
}

void TimelineDetailsPanel::setSource(std::shared_ptr<const TimelineSource> source) {
    m_source = std::move(source);
    showSummary();
}

void TimelineDetailsPanel::showSummary() {
    if (!m_source) {
        setHtml(QStringLiteral("<p>No run loaded.</p>"));
        return;
    }
    QString html = QStringLiteral("<h3>Timeline</h3><p>%L1 NPUs, end %2.</p>")
                       .arg(m_source->rowCount())
                       .arg(timeText(m_source->endPs()));
    const auto& path = m_source->criticalPath();
    html += path.empty()
                ? QStringLiteral("<p>No critical path recorded.</p>")
                : QStringLiteral("<p>Critical path: %1 (outlined in black).</p>")
                      .arg(path.size() == 1 ? tr("1 node") : tr("%1 nodes").arg(path.size()));
    html += QStringLiteral("<p>Click a bar for details. Wheel: zoom; drag: pan; Ctrl+drag: zoom "
                           "to a range; Alt+Left/Right: zoom history; Home: show all.</p>");
    setHtml(html);
}

QString TimelineDetailsPanel::activityHtml(const ActivityInterval& a) const {
    if (!m_source)
        return {};
    const auto& names = m_source->names();
    const QString name = a.nameIndex < names.size() ? QString::fromStdString(names[a.nameIndex])
                                                    : QStringLiteral("node %1").arg(a.nodeId);
    QString html = QStringLiteral("<h3>%1</h3><table>").arg(breakableName(name.toHtmlEscaped()));
    const auto row = [&html](const QString& key, const QString& value) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(key, value);
    };
    row(QStringLiteral("NPU"), QString::number(a.npu));
    row(QStringLiteral("node id"), QString::number(a.nodeId));
    row(QStringLiteral("type"), QString::fromLatin1(nodeTypeName(a.nodeType)));
    row(QStringLiteral("kind"), QString::fromLatin1(activityKindName(a.kind)));
    row(QStringLiteral("start"), timeText(a.start.ps()));
    row(QStringLiteral("end"), timeText(a.end.ps()));
    row(QStringLiteral("duration"), timeText((a.end - a.start).ps()));
    if (a.bytes > 0)
        row(QStringLiteral("size"), formatBytes(a.bytes));
    if (const CollectiveSpan* c = m_source->collective(a.npu, a.nodeId)) {
        row(QStringLiteral("collective"), QString::fromLatin1(collectiveTypeName(c->type)));
        row(QStringLiteral("collective size"), formatBytes(c->sizeBytes));
        row(QStringLiteral("chunks"), QString::number(c->chunks));
        row(QStringLiteral("comm group"), QString::number(c->commGroup));
    }
    html += QStringLiteral("</table>");

    // What a phase does, in the words of the lessons: an all-reduce phase on one dimension is a
    // reduce-scatter followed by an all-gather ("all-reduce" four times named neither).
    const auto phaseKindText = [](const PhaseSpan& p) {
        const auto kind = static_cast<CollectiveKind>(p.phaseKind);
        QString text = QString::fromLatin1(collectiveKindName(kind));
        const auto algorithm = static_cast<AlgorithmKind>(p.algorithm);
        if (kind == CollectiveKind::AllReduce)
            text = algorithm == AlgorithmKind::DoubleBinaryTree
                       ? QStringLiteral("reduce, then broadcast")
                   : algorithm == AlgorithmKind::InSwitch
                       ? QStringLiteral("up to the switch, then down")
                       : QStringLiteral("reduce-scatter, then all-gather");
        return text + QStringLiteral(" (%1)").arg(
                          QString::fromStdString(algorithmName(AlgorithmSpec{algorithm, 0})));
    };
    QString phases;
    int phaseCount = 0;
    for (const PhaseSpan& p : m_source->phases(a.npu, a.start.ps(), a.end.ps() + 1).items) {
        if (p.nodeId != a.nodeId || p.end < a.start)
            continue;
        if (++phaseCount > 64)
            continue;
        phases += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>")
                      .arg(p.chunk)
                      .arg(p.phase)
                      .arg(p.dimension)
                      .arg(phaseKindText(p))
                      .arg(timeText((p.end - p.start).ps()));
    }
    if (phaseCount > 0) {
        html += QStringLiteral("<h4>Phases (%1)</h4><table><tr><th>chunk</th><th>phase</th>"
                               "<th>dim</th><th>kind</th><th>duration</th></tr>%2</table>")
                    .arg(phaseCount)
                    .arg(phases);
        if (phaseCount > 64)
            html += QStringLiteral("<p>(first 64 shown)</p>");
    }

    html += QStringLiteral("<h4>Dependencies</h4>");
    if (m_dependencies) {
        const std::vector<uint64_t> deps = m_dependencies(a.npu, a.nodeId);
        QStringList ids;
        for (uint64_t id : deps)
            ids << QString::number(id);
        html += deps.empty() ? QStringLiteral("<p>none</p>")
                             : QStringLiteral("<p>%1</p>").arg(ids.join(QStringLiteral(", ")));
    } else {
        html += QStringLiteral("<p>not recorded in this run</p>");
    }

    const int index = criticalPathIndex(*m_source, a.npu, a.nodeId);
    const auto& path = m_source->criticalPath();
    html += QStringLiteral("<h4>Critical path</h4>");
    if (index >= 0)
        html += QStringLiteral("<p><b>On the critical path</b>: step %1 of %2.</p>")
                    .arg(index + 1)
                    .arg(path.size());
    else
        html +=
            path.empty()
                ? QStringLiteral("<p>not recorded</p>")
                : QStringLiteral("<p>Not on the critical path (%1).</p>")
                      .arg(QString::fromStdString(units::countOf(path.size(), "node", "nodes")));
    return html;
}

void TimelineDetailsPanel::showActivity(const ActivityInterval& activity) {
    setHtml(activityHtml(activity));
}

} // namespace astrolabe::widgets

namespace astrolabe::widgets {

QMimeData* TimelineDetailsPanel::createMimeDataFromSelection() const {
    auto* data = new QMimeData; // Qt takes ownership
    data->setText(textCursor().selection().toPlainText().remove(QChar(0x200b)));
    return data;
}

} // namespace astrolabe::widgets
