#include "topology/GraphEditor.h"

#include "config/SettingPresentation.h"
#include "core/Error.h"
#include "core/Units.h"
#include "schema/Setting.h"
#include "spec/LogicalDimensions.h"
#include "topology/GraphEdits.h"
#include "topology/GraphLayout.h"
#include "topology/GraphPalette.h"
#include "topology/GraphView.h"
#include "topology/TopologyDocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLineF>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStringList>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <set>

namespace astrolabe::widgets {

namespace {
constexpr size_t kKnownGraphs = 32;
constexpr int kLinkMergeBase = 1 << 20; // merge keys of link edits, past the stack's

std::vector<GraphPoint> toPoints(const std::vector<QPointF>& positions) {
    std::vector<GraphPoint> out;
    out.reserve(positions.size());
    for (const QPointF& p : positions)
        out.push_back({p.x(), p.y()});
    return out;
}
} // namespace

QPointF GraphEditor::freePlace(const std::vector<QPointF>& positions, int skip) const {
    // The middle of what is shown, or the first place on a square spiral around it that is at
    // least half a pitch from every device.
    const QPointF centre = m_view->mapToScene(m_view->viewport()->rect().center());
    const auto free = [&](QPointF p) {
        for (size_t i = 0; i < positions.size(); ++i)
            if (static_cast<int>(i) != skip && QLineF(p, positions[i]).length() < kGraphPitch / 2)
                return false;
        return true;
    };
    for (int ring = 0; ring < 64; ++ring)
        for (int dx = -ring; dx <= ring; ++dx)
            for (int dy = -ring; dy <= ring; ++dy) {
                if (std::max(std::abs(dx), std::abs(dy)) != ring)
                    continue;
                const QPointF p = centre + QPointF(dx, dy) * (kGraphPitch / 2);
                if (free(p))
                    return p;
            }
    return centre;
}

GraphEditor::GraphEditor(TopologyDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_palette(new GraphPalette(this))
    , m_view(new GraphView(this))
    , m_bandwidth(new QLineEdit(this))
    , m_latency(new QLineEdit(this))
    , m_bidirectional(new QCheckBox(tr("both directions"), this))
    , m_routing(new QComboBox(this))
    , m_logical(new QLineEdit(this))
    , m_inline(new QLineEdit(m_view->viewport()))
    , m_linkTitle(new QLabel(this))
    , m_problems(new QLabel(this)) {
    auto* panel = new QWidget(this);
    auto* column = new QVBoxLayout(panel);
    column->addWidget(new QLabel(tr("<b>Generators</b> \u2014 pick one, set its size"), panel));
    column->addWidget(m_palette);
    column->addWidget(new QLabel(tr("<b>Devices</b> \u2014 drag from one to another to link "
                                    "them"),
                                 panel));
    auto* addNpu = new QPushButton(tr("Add NPU"), panel);
    auto* addSwitch = new QPushButton(tr("Add switch"), panel);
    auto* remove = new QPushButton(tr("Delete selected"), panel);
    auto* layout = new QPushButton(tr("Auto layout"), panel);
    for (QPushButton* b : {addNpu, addSwitch, remove, layout})
        column->addWidget(b);
    const settings::Setting& routing = settings::find(settings::graphGroup(), "graph.routing");
    for (size_t i = 0; i < routing.choices.size(); ++i)
        m_routing->addItem(QString::fromStdString(choiceLabel(routing, i)));
    m_routing->setToolTip(QString::fromStdString(routing.help));
    auto* routingForm = new QFormLayout;
    routingForm->addRow(tr("Routing"), m_routing);
    m_logical->setToolTip(
        tr("The logical dimensions collectives plan over, e.g. \"8, 4\" for 32 NPUs: sizes "
           "that multiply to the NPU count, one algorithm each in the system settings; every "
           "message is still routed on the graph (docs/graph-platforms.md, Collectives)"));
    routingForm->addRow(tr("Logical dimensions"), m_logical);
    column->addLayout(routingForm);
    m_linkTitle->setText(tr("<b>Link</b> \u2014 select one"));
    column->addWidget(m_linkTitle);
    auto* form = new QFormLayout;
    form->addRow(tr("Bandwidth"), m_bandwidth);
    form->addRow(tr("Latency"), m_latency);
    form->addRow(QString(), m_bidirectional);
    column->addLayout(form);
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #c0392b"));
    column->addWidget(m_problems);
    column->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(panel);
    scroll->setMinimumWidth(300);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(scroll);
    splitter->addWidget(m_view);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({340, 860});
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(splitter);

    connect(m_palette, &GraphPalette::generated, this, [this](const GraphSpec& graph) {
        m_document->replacePlatform(graphPlatform(graph),
                                    tr("Generate %1").arg(QString::fromStdString(graph.generator)));
    });
    connect(addNpu, &QPushButton::clicked, this, [this] { addDevice(false); });
    connect(addSwitch, &QPushButton::clicked, this, [this] { addDevice(true); });
    connect(remove, &QPushButton::clicked, this, &GraphEditor::deleteSelection);
    connect(layout, &QPushButton::clicked, this, &GraphEditor::relayout);
    connect(m_view, &GraphView::linkDragged, this, &GraphEditor::addLink);
    connect(m_view, &GraphView::deviceMoved, this, &GraphEditor::moveDevice);
    connect(m_view, &GraphView::selectionChanged, this, &GraphEditor::showSelectedLink);
    for (QLineEdit* e : {m_bandwidth, m_latency})
        connect(e, &QLineEdit::editingFinished, this, &GraphEditor::editSelectedLink);
    connect(m_bidirectional, &QCheckBox::clicked, this, &GraphEditor::editSelectedLink);
    connect(m_routing, &QComboBox::activated, this, &GraphEditor::editRouting);
    connect(m_logical, &QLineEdit::editingFinished, this, &GraphEditor::editLogicalDimensions);
    m_inline->setObjectName(QStringLiteral("inlineLinkEdit"));
    m_inline->setToolTip(tr("bandwidth, latency (e.g. 25 GB/s, 500 ns); Enter applies, Escape "
                            "closes"));
    m_inline->hide();
    m_inline->installEventFilter(this);
    connect(m_view, &GraphView::linkDoubleClicked, this, &GraphEditor::openInlineLinkEdit);
    connect(m_inline, &QLineEdit::returnPressed, this, &GraphEditor::applyInlineLinkEdit);
    connect(m_document, &TopologyDocument::memoryChanged, this,
            [this] { m_view->setMemory(m_document->memory()); });
}

void GraphEditor::openInlineLinkEdit(int link, QPoint viewPos) {
    if (!m_document->platform().graph || link < 0 ||
        link >= static_cast<int>(m_document->platform().graph->links.size()))
        return;
    // The panel shows the selected link's values in the project's units: start from them.
    m_inline->setText(m_bandwidth->text() + QStringLiteral(", ") + m_latency->text());
    const QSize size(std::max(180, m_inline->sizeHint().width() * 3 / 2),
                     m_inline->sizeHint().height());
    const QRect area = m_view->viewport()->rect();
    const QPoint at(
        std::clamp(viewPos.x() - size.width() / 2, 0, std::max(0, area.width() - size.width())),
        std::clamp(viewPos.y() + 8, 0, std::max(0, area.height() - size.height())));
    m_inline->setGeometry(QRect(at, size));
    m_inline->setProperty("link", link);
    m_inline->show();
    m_inline->raise();
    m_inline->setFocus(Qt::MouseFocusReason);
    m_inline->selectAll();
}

void GraphEditor::applyInlineLinkEdit() {
    const int link = m_inline->property("link").toInt();
    const QStringList parts = m_inline->text().split(QLatin1Char(','));
    if (parts.size() != 2) {
        m_problems->setText(tr("\u26a0 link %1: expected \"bandwidth, latency\" (e.g. 25 GB/s, "
                               "500 ns), found \"%2\"")
                                .arg(link)
                                .arg(m_inline->text()));
        return;
    }
    if (m_view->selectedLinks() != std::set<int>{link})
        m_view->select({}, {link});
    m_bandwidth->setText(parts[0].trimmed());
    m_latency->setText(parts[1].trimmed());
    if (editSelectedLink())
        m_inline->hide(); // refused text keeps it open, the reason under the panel
}

bool GraphEditor::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_inline) {
        const bool escape = event->type() == QEvent::KeyPress &&
                            static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape;
        if (escape || event->type() == QEvent::FocusOut) {
            m_inline->hide();
            if (escape)
                showSelectedLink(); // the panel back to the link's values
            return escape;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void GraphEditor::remember(const GraphSpec& graph, std::vector<QPointF> positions) {
    for (auto it = m_known.begin(); it != m_known.end(); ++it)
        if (it->first == graph) {
            m_known.erase(it);
            break;
        }
    m_known.emplace_front(graph, std::move(positions));
    if (m_known.size() > kKnownGraphs)
        m_known.pop_back();
}

void GraphEditor::showGraph() {
    const PlatformSpec& platform = m_document->platform();
    if (!platform.graph)
        return;
    const GraphSpec& graph = *platform.graph;
    const auto known = std::find_if(m_known.begin(), m_known.end(),
                                    [&](const auto& entry) { return entry.first == graph; });
    if (graph.hasPositions())
        m_positions = givenPositions(graph);
    else if (known != m_known.end() &&
             known->second.size() == static_cast<size_t>(graph.deviceCount()))
        m_positions = known->second;
    else
        m_positions = layoutGraph(platform).positions;
    remember(graph, m_positions);
    std::set<int> bad;
    QStringList lines;
    for (const GraphProblem& p : graphEditorProblems(graph)) {
        if (p.link >= 0)
            bad.insert(p.link);
        lines << QStringLiteral("\u26a0 ") + QString::fromStdString(p.what);
    }
    m_problems->setText(lines.join(QLatin1Char('\n')));
    m_view->setGraph(graph, m_positions, bad, wrapLinks(graph, m_positions), m_document->memory());
    m_routing->setCurrentIndex(static_cast<int>(graph.routing)); // no signal: only `activated`
    QStringList sizes;
    for (const DimensionSpec& d : platform.dimensions)
        sizes << QString::number(d.size);
    m_logical->setText(sizes.join(QStringLiteral(", ")));
    showSelectedLink();
}

void GraphEditor::editLogicalDimensions() {
    if (!m_document->platform().graph)
        return;
    const int npus = m_document->platform().graph->npus;
    // "8, 4", "8 4" and "8x4" alike.
    QString text = m_logical->text();
    text.replace(QLatin1Char('x'), QLatin1Char(' ')).replace(QChar(0xd7), QLatin1Char(' '));
    text.replace(QLatin1Char(','), QLatin1Char(' '));
    std::vector<int64_t> sizes;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong v = word.toLongLong(&ok);
        if (!ok) {
            m_problems->setText(tr("\u26a0 logical dimensions: expected whole numbers, found "
                                   "\"%1\"")
                                    .arg(word));
            return;
        }
        sizes.push_back(v);
    }
    if (const std::string problem = logicalDimensionsProblem(sizes, npus); !problem.empty()) {
        m_problems->setText(
            tr("\u26a0 logical dimensions: %1").arg(QString::fromStdString(problem)));
        return;
    }
    const PlatformSpec before = m_document->platform();
    m_document->editLogicalDimensions(sizes); // a change redraws through platformChanged
    if (m_document->platform() == before) {
        // The same sizes written otherwise ("8x4"): show them as the project has them (and
        // the graph's own problems instead of an earlier refusal).
        showGraph();
    }
}

void GraphEditor::editRouting(int index) {
    if (!m_document->platform().graph || index < 0)
        return;
    GraphSpec graph = *m_document->platform().graph;
    graph.routing = static_cast<GraphRouting>(index);
    if (graph == *m_document->platform().graph)
        return;
    remember(graph, m_positions);
    m_document->editGraph(
        graph, tr("Routing: %1").arg(QString::fromLatin1(graphRoutingName(graph.routing))));
}

void GraphEditor::moveDevice(int device, QPointF scenePos) {
    if (device < 0 || device >= static_cast<int>(m_positions.size()))
        return;
    // Whole scene units: the project file then holds short numbers.
    std::vector<QPointF> positions = m_positions;
    positions[static_cast<size_t>(device)] =
        QPointF(std::round(scenePos.x()), std::round(scenePos.y()));
    GraphSpec graph = *m_document->platform().graph;
    graph.positions = toPoints(positions);
    remember(graph, positions);
    m_document->editGraph(graph,
                          tr("Move %1").arg(QString::fromStdString(graph.deviceName(device))));
}

void GraphEditor::relayout() {
    m_known.clear();
    GraphSpec graph = *m_document->platform().graph;
    if (graph.positions.empty()) {
        showGraph();
        return;
    }
    graph.positions.clear(); // saved positions go: one undoable step
    m_document->editGraph(graph, tr("Auto layout"));
}

void GraphEditor::addDevice(bool isSwitch) {
    GraphSpec graph = *m_document->platform().graph;
    std::vector<int> renumber;
    const int id = addGraphDevice(graph, isSwitch, &renumber);
    std::vector<QPointF> positions(static_cast<size_t>(graph.deviceCount()));
    for (size_t old = 0; old < renumber.size(); ++old)
        positions[static_cast<size_t>(renumber[old])] = m_positions[old];
    positions[static_cast<size_t>(id)] = freePlace(positions, id);
    if (!graph.positions.empty())
        graph.positions = toPoints(positions);
    remember(graph, std::move(positions));
    m_document->editGraph(graph, isSwitch ? tr("Add switch") : tr("Add NPU"));
}

void GraphEditor::addLink(int from, int to) {
    GraphSpec graph = *m_document->platform().graph;
    // Two devices are linked once per direction (a second link's bandwidth would go unused,
    // and the project would not read back): dragging again selects the link there, whose
    // bandwidth can then be raised.
    for (size_t i = 0; i < graph.links.size(); ++i) {
        const GraphLinkSpec& l = graph.links[i];
        if ((l.from == from && l.to == to) || (l.bidirectional && l.from == to && l.to == from)) {
            m_view->select({}, {static_cast<int>(i)});
            return;
        }
    }
    addGraphLink(graph, from, to);
    remember(graph, m_positions);
    m_document->editGraph(graph, tr("Add link %1 \u2013 %2")
                                     .arg(QString::fromStdString(graph.deviceName(from)),
                                          QString::fromStdString(graph.deviceName(to))));
    m_view->select({}, {static_cast<int>(graph.links.size()) - 1});
}

void GraphEditor::deleteSelection() {
    const std::set<int> devices = m_view->selectedDevices(), links = m_view->selectedLinks();
    if (devices.empty() && links.empty())
        return;
    GraphSpec graph = *m_document->platform().graph;
    const std::vector<int> renumber = removeGraphItems(graph, devices, links);
    std::vector<QPointF> positions(static_cast<size_t>(graph.deviceCount()));
    for (size_t old = 0; old < renumber.size(); ++old)
        if (renumber[old] >= 0)
            positions[static_cast<size_t>(renumber[old])] = m_positions[old];
    if (!graph.positions.empty())
        graph.positions = toPoints(positions);
    remember(graph, std::move(positions));
    m_view->select({}, {});
    m_document->editGraph(
        graph, tr("Delete %1 devices and %2 links").arg(devices.size()).arg(links.size()));
}

void GraphEditor::showSelectedLink() {
    const std::set<int> links = m_view->selectedLinks();
    const PlatformSpec& platform = m_document->platform();
    const bool one = links.size() == 1 && m_view->selectedDevices().empty() && platform.graph;
    for (QWidget* w : std::initializer_list<QWidget*>{m_bandwidth, m_latency, m_bidirectional})
        w->setEnabled(one);
    if (!one) {
        m_linkTitle->setText(tr("<b>Link</b> \u2014 select one"));
        return;
    }
    const int i = *links.begin();
    const GraphLinkSpec& l = platform.graph->links.at(static_cast<size_t>(i));
    m_linkTitle->setText(tr("<b>Link %1</b>: %2 \u2013 %3")
                             .arg(i)
                             .arg(QString::fromStdString(platform.graph->deviceName(l.from)),
                                  QString::fromStdString(platform.graph->deviceName(l.to))));
    m_bandwidth->setText(QString::fromStdString(units::formatBandwidth(l.bandwidthBytesPerSecond)));
    m_latency->setText(QString::fromStdString(
        units::formatTime(SimTime::fromNsRounded(l.latencyNs), units::TimeSpelling::MicroSign)));
    m_bidirectional->setChecked(l.bidirectional);
}

bool GraphEditor::editSelectedLink() {
    const std::set<int> links = m_view->selectedLinks();
    if (links.size() != 1 || !m_document->platform().graph)
        return false;
    const int i = *links.begin();
    GraphSpec graph = *m_document->platform().graph;
    GraphLinkSpec& l = graph.links.at(static_cast<size_t>(i));
    try {
        l.bandwidthBytesPerSecond =
            units::parseBandwidthBytesPerSecond(m_bandwidth->text().toStdString());
        l.latencyNs = units::parseTime(m_latency->text().toStdString()).ns();
    } catch (const Error& e) {
        m_problems->setText(
            QStringLiteral("\u26a0 link %1: %2").arg(i).arg(QString::fromStdString(e.message())));
        return false;
    }
    l.bidirectional = m_bidirectional->isChecked();
    if (graph == *m_document->platform().graph)
        return true;
    remember(graph, m_positions);
    m_document->editGraph(graph, tr("Change link %1").arg(i), kLinkMergeBase + i);
    m_view->select({}, {i});
    return true;
}

} // namespace astrolabe::widgets
