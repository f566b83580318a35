#include "config/ConfigurationPanel.h"

#include "config/ConfigSection.h"
#include "config/Sections.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

namespace astrolabe::widgets {

ConfigurationPanel::ConfigurationPanel(QWidget* parent)
    : QWidget(parent)
    , m_scroll(new QScrollArea(this))
    , m_summary(new QLabel(this)) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_summary->setWordWrap(true);
    m_summary->setContentsMargins(10, 6, 10, 0);
    outer->addWidget(m_summary);
    outer->addWidget(m_scroll, 1);

    auto* content = new QWidget(m_scroll);
    auto* columns = new QHBoxLayout(content);
    auto* left = new QVBoxLayout;
    auto* right = new QVBoxLayout;
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);
    m_columns = columns;
    m_left = left;
    m_right = right;

    m_sections = {createWorkloadSection(content), createCollectivesSection(content),
                  createSystemSection(content), createRunSection(content),
                  createMemorySection(content)};
    left->addWidget(m_sections[0]);
    left->addWidget(m_sections[1]);
    left->addWidget(m_sections[2]);
    right->addWidget(m_sections[3]);
    right->addWidget(m_sections[4]);
    left->addStretch(1);
    right->addStretch(1);
    for (ConfigSection* s : m_sections) {
        connect(s, &ConfigSection::editRequested, this, &ConfigurationPanel::editRequested);
        connect(s, &ConfigSection::sweepRequested, this, &ConfigurationPanel::sweepRequested);
    }

    m_scroll->setWidget(content);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    // The columns stack when side by side is too wide; a single column wider than the view (large
    // interface scale, narrow window) scrolls sideways rather than being cut.
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setBaseline(nullptr);
}

void ConfigurationPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    reflowColumns();
}

void ConfigurationPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        QTimer::singleShot(0, this, &ConfigurationPanel::reflowColumns);
}

void ConfigurationPanel::reflowColumns() {
    const QMargins margins = m_columns->contentsMargins();
    const int sideBySide = m_left->minimumSize().width() + m_right->minimumSize().width() +
                           m_columns->spacing() + margins.left() + margins.right();
    const int room = m_scroll->viewport()->width();
    const auto direction = sideBySide <= room ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_columns->direction() != direction)
        m_columns->setDirection(direction);
}

void ConfigurationPanel::setSpec(const SimulationSpec& spec) {
    for (ConfigSection* s : m_sections)
        s->setSpec(spec);
    refreshSummary();
}

void ConfigurationPanel::setBaseline(const SimulationSpec* baseline) {
    for (ConfigSection* s : m_sections)
        s->setBaseline(baseline);
    refreshSummary();
}

void ConfigurationPanel::refreshSummary() {
    const QStringList changed = changedFields();
    if (changed.isEmpty())
        m_summary->setText(tr("Hover over a setting to see what it does. Settings you change "
                              "after a run are marked \u25CF until the next run."));
    else
        m_summary->setText(
            tr("<b>\u25CF %1 changed since the last run:</b> %2")
                .arg(changed.size() == 1 ? tr("1 setting") : tr("%1 settings").arg(changed.size()),
                     changed.join(QStringLiteral(", "))));
}

bool ConfigurationPanel::focusKey(const QString& keyPath) {
    QWidget* editor = editorForKey(keyPath);
    if (!editor)
        return false;
    m_scroll->ensureWidgetVisible(editor);
    editor->setFocus(Qt::OtherFocusReason);
    QWidget* target = editor->focusProxy() ? editor->focusProxy() : editor;
    markInvalid(target, true);
    ConfigSection* section = nullptr;
    for (ConfigSection* s : m_sections)
        if (s->messageLabel(editor))
            section = s;
    // The highlight fades after a few seconds unless the field has its own validation error.
    QTimer::singleShot(kHighlightMs, target, [target, editor, section] {
        auto* quantity = qobject_cast<QuantityEdit*>(editor);
        const bool stillInvalid =
            quantity ? !quantity->isValid() : (section && section->isInvalid(editor));
        if (!stillInvalid)
            markInvalid(target, false);
    });
    return true;
}

bool ConfigurationPanel::focusFirstInvalid() {
    for (ConfigSection* s : m_sections)
        for (QLabel* label : s->findChildren<QLabel*>()) {
            QWidget* editor = label->buddy();
            if (editor && s->isInvalid(editor)) {
                m_scroll->ensureWidgetVisible(editor);
                editor->setFocus(Qt::OtherFocusReason);
                return true;
            }
        }
    return false;
}

bool ConfigurationPanel::requestSweep(const QString& keyPath) {
    for (ConfigSection* s : m_sections)
        if (s->requestSweep(keyPath))
            return true;
    return false;
}

QWidget* ConfigurationPanel::editorForKey(const QString& keyPath) const {
    for (ConfigSection* s : m_sections)
        if (QWidget* e = s->editorForKey(keyPath))
            return e;
    return nullptr;
}

QStringList ConfigurationPanel::changedFields() const {
    QStringList out;
    for (ConfigSection* s : m_sections)
        out += s->changedFields();
    return out;
}

QStringList ConfigurationPanel::invalidFields() const {
    QStringList out;
    for (ConfigSection* s : m_sections)
        out += s->invalidFields();
    return out;
}

} // namespace astrolabe::widgets
