#include "topology/MemoryTierPanel.h"

#include "config/ConfigSection.h"
#include "config/Sections.h"
#include "topology/MemoryTierMath.h"
#include "topology/MemoryTierPainter.h"
#include "topology/TopologyDocument.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QMouseEvent>
#include <QToolButton>
#include <QVBoxLayout>

namespace astrolabe::widgets {

MemoryTierPanel::MemoryTierPanel(TopologyDocument* document, QAction* add, QAction* remove,
                                 QWidget* parent)
    : QFrame(parent)
    , m_document(document)
    , m_summary(new QLabel(this))
    , m_add(new QToolButton(this))
    , m_remove(new QToolButton(this))
    , m_section(createMemorySection(this))
    , m_problems(new QLabel(this)) {
    setFrameShape(QFrame::StyledPanel);
    setObjectName(QStringLiteral("memoryTierPanel"));
    setToolTip(tr("The memory tier under the NPUs (the project's memory: section); click to "
                  "edit it"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_add->setDefaultAction(add);
    m_remove->setDefaultAction(remove);
    m_section->setTitle(QString());
    // The form is narrower here than in the Configuration tab.
    if (auto* grid = qobject_cast<QGridLayout*>(m_section->layout())) {
        grid->setColumnMinimumWidth(0, 120);
        grid->setColumnMinimumWidth(1, 150);
    }
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #c0392b;"));

    auto* header = new QHBoxLayout;
    auto* swatch = new QLabel(this);
    swatch->setFixedSize(12, 12);
    swatch->setStyleSheet(
        QStringLiteral("background: %1; border-radius: 2px;").arg(memoryTierColor().name()));
    header->addWidget(swatch);
    header->addWidget(m_summary, 1);
    header->addWidget(m_add);
    header->addWidget(m_remove);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(6, 4, 6, 4);
    column->addLayout(header);
    column->addWidget(m_section);
    column->addWidget(m_problems);

    connect(m_section, &ConfigSection::editRequested, this, &MemoryTierPanel::applyEdit);
    connect(m_section, &ConfigSection::sweepRequested, this, &MemoryTierPanel::sweepRequested);
    connect(document, &TopologyDocument::memoryChanged, this, &MemoryTierPanel::refresh);
    connect(document, &TopologyDocument::platformChanged, this, &MemoryTierPanel::refresh);
    connect(document, &TopologyDocument::memorySelectionChanged, this, &MemoryTierPanel::refresh);
    refresh();
}

void MemoryTierPanel::refresh() {
    const RemoteMemoryConfig& memory = m_document->memory();
    const int64_t npus = m_document->platform().npuCount();
    const bool present = hasMemoryTier(memory);
    const bool selected = m_document->memorySelected();
    m_summary->setText(
        present ? tr("<b>Memory tier</b> %1").arg(memoryTierSummary(memory, npus).toHtmlEscaped())
                : tr("<b>Memory tier</b> \u2014 none"));
    // Without a tier the panel is hidden (the editor looks as it did before tiers existed);
    // "Add memory tier" is in the drawing's and the stack's context menus.
    setVisible(present);
    m_add->setVisible(!present);
    m_remove->setVisible(present);
    SimulationSpec spec;
    spec.platform = m_document->platform();
    spec.memory = memory;
    m_section->setSpec(spec);
    m_section->setVisible(present && selected);
    QStringList problems;
    for (const std::string& p : memoryProblems(memory, m_document->platform()))
        problems << QStringLiteral("\u26a0 ") + QString::fromStdString(p);
    m_problems->setText(problems.join(QLatin1Char('\n')));
    m_problems->setVisible(!problems.isEmpty());
    setStyleSheet(selected ? QStringLiteral("#memoryTierPanel { border: 2px solid #e74c3c; }")
                           : QString());
}

void MemoryTierPanel::applyEdit(const SpecEdit& edit) {
    SimulationSpec spec;
    spec.platform = m_document->platform();
    spec.memory = m_document->memory();
    edit.apply(spec);
    RemoteMemoryConfig next = spec.memory;
    // A new type gets what it needs (nodes, groups, ports) filled in; other edits are kept as
    // typed, and a bad value is reported, never corrected.
    if (next.type != m_document->memory().type)
        next = withMemoryDefaults(next, spec.platform.npuCount());
    const int mergeKey = edit.mergeable ? static_cast<int>(qHash(edit.keyPath) & 0x7fffffff) : -1;
    m_document->editMemory(next, edit.description, mergeKey);
}

void MemoryTierPanel::mousePressEvent(QMouseEvent* event) {
    m_document->setMemorySelected(true);
    QFrame::mousePressEvent(event);
}

} // namespace astrolabe::widgets
