#include "config/ConfigSection.h"

#include "core/Error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>

namespace astrolabe::widgets {

QString normalizedKey(const QString& keyPath) {
    QString k = keyPath.toLower();
    static const QRegularExpression index(QStringLiteral("\\[[^\\]]*\\]"));
    k.remove(index);
    k.remove(u'-');
    k.remove(u'_');
    k.remove(u' ');
    return k;
}

ConfigSection::ConfigSection(const QString& title, QWidget* parent)
    : QGroupBox(title, parent)
    , m_grid(new QGridLayout(this)) {
    m_grid->setColumnStretch(1, 1);
    m_grid->setHorizontalSpacing(12);
    m_grid->setVerticalSpacing(4);
    m_grid->setColumnMinimumWidth(0, 185); // labels line up across sections
    m_grid->setColumnMinimumWidth(1, 200);
}

ConfigSection::Field& ConfigSection::addRow(const QString& label, const QStringList& keys,
                                            const QString& tip, QWidget* editor) {
    // Two grid rows per field: label and editor, then the validation message under the editor
    // (hidden while empty), so a long message never squeezes the form.
    const int row = m_grid->rowCount();
    Field f;
    f.label = label;
    f.keys = keys;
    f.labelWidget = new QLabel(label, this);
    f.labelWidget->setBuddy(editor);
    f.editor = editor;
    f.message = new QLabel(this);
    f.message->setStyleSheet(QStringLiteral("color: #c62828;"));
    f.message->setWordWrap(true);
    editor->setObjectName(keys.value(0));
    editor->setToolTip(tip);
    f.labelWidget->setToolTip(tip);
    f.message->setVisible(false);
    m_grid->addWidget(f.labelWidget, row, 0);
    m_grid->addWidget(editor, row, 1);
    m_grid->addWidget(f.message, row + 1, 1);
    if (keys.value(0).contains(QLatin1Char('.'))) { // a project key path: it can be swept
        f.labelWidget->setContextMenuPolicy(Qt::CustomContextMenu);
        const QString key = keys.value(0);
        connect(f.labelWidget, &QWidget::customContextMenuRequested, this,
                [this, key, label = f.labelWidget](const QPoint& at) {
                    QMenu menu(this);
                    QAction* sweep = menu.addAction(tr("Sweep this setting…"));
                    if (menu.exec(label->mapToGlobal(at)) == sweep)
                        requestSweep(key);
                });
        // The input's own right-click menu too (spin boxes and quantity edits hold line edits,
        // which get the click first).
        m_sweepInputs.insert(editor, key);
        editor->installEventFilter(this);
        for (QWidget* part : editor->findChildren<QWidget*>()) {
            m_sweepInputs.insert(part, key);
            part->installEventFilter(this);
        }
    }
    m_fields.push_back(std::move(f));
    return m_fields.back();
}

QMenu* ConfigSection::inputMenu(QWidget* input) {
    const auto it = m_sweepInputs.constFind(input);
    if (it == m_sweepInputs.constEnd())
        return nullptr;
    QLineEdit* edit = qobject_cast<QLineEdit*>(input);
    if (!edit && qobject_cast<QAbstractSpinBox*>(input))
        edit = input->findChild<QLineEdit*>();
    QMenu* menu = edit ? edit->createStandardContextMenu() : new QMenu;
    menu->setParent(input->window(), Qt::Popup);
    if (!menu->isEmpty())
        menu->addSeparator();
    const QString key = it.value();
    // Queued: the dialog it opens must not run inside the menu's own signal.
    connect(
        menu->addAction(tr("Sweep this setting…")), &QAction::triggered, this,
        [this, key] { requestSweep(key); }, Qt::QueuedConnection);
    return menu;
}

bool ConfigSection::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::ContextMenu || !m_sweepInputs.contains(watched))
        return QGroupBox::eventFilter(watched, event);
    auto* input = static_cast<QWidget*>(watched);
    QMenu* menu = inputMenu(input);
    // Deleted once closed: the action's slot may open a modal dialog from inside exec().
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(static_cast<QContextMenuEvent*>(event)->globalPos());
    return true;
}

bool ConfigSection::requestSweep(const QString& keyPath) {
    for (const Field& f : m_fields)
        if (f.keys.value(0) == keyPath) {
            emit sweepRequested(keyPath, f.label, f.show ? f.show(m_spec) : QString());
            return true;
        }
    return false;
}

void ConfigSection::request(const QString& key, const QString& description,
                            std::function<void(SimulationSpec&)> apply, bool mergeable) {
    if (m_loading)
        return;
    emit editRequested(SpecEdit{key, description, std::move(apply), mergeable});
}

void ConfigSection::setMessage(Field& field, const QString& message) {
    field.typed = message;
    showMessage(field);
}

void ConfigSection::showMessage(Field& field) {
    const bool note = field.typed.isEmpty() && !field.problem.blocking;
    const QString text = !field.typed.isEmpty() ? field.typed
                         : note && !field.problem.text.isEmpty()
                             ? QStringLiteral("\u26a0 ") + field.problem.text
                             : field.problem.text;
    field.message->setText(text);
    field.message->setStyleSheet(note ? QStringLiteral("color: #8a5a00;")
                                      : QStringLiteral("color: #c62828;"));
    field.message->setVisible(!text.isEmpty());
    if (!qobject_cast<QuantityEdit*>(field.editor))
        markInvalid(field.editor, !text.isEmpty() && !note);
}

QWidget* ConfigSection::addInt(const QString& label, const QStringList& keys, const QString& tip,
                               int min, int max, Getter<int> get, Setter<int> set) {
    auto* spin = new QSpinBox(this);
    spin->setRange(min, max);
    Field& f = addRow(label, keys, tip, spin);
    f.show = [get](const SimulationSpec& s) { return QString::number(get(s)); };
    f.load = [spin, get](const SimulationSpec& s) {
        if (spin->value() != get(s)) {
            QSignalBlocker block(spin);
            spin->setValue(get(s));
        }
    };
    const QString key = keys.value(0);
    connect(spin, &QSpinBox::valueChanged, this, [this, key, label, set](int v) {
        request(
            key, tr("Set %1 to %2").arg(label).arg(v), [set, v](SimulationSpec& s) { set(s, v); },
            true);
    });
    return spin;
}

QWidget* ConfigSection::addDouble(const QString& label, const QStringList& keys, const QString& tip,
                                  double min, double max, int decimals, const QString& suffix,
                                  Getter<double> get, Setter<double> set) {
    auto* spin = new QDoubleSpinBox(this);
    spin->setRange(min, max);
    spin->setDecimals(decimals);
    if (!suffix.isEmpty())
        spin->setSuffix(u' ' + suffix);
    Field& f = addRow(label, keys, tip, spin);
    f.show = [get](const SimulationSpec& s) { return QString::number(get(s), 'g', 17); };
    f.load = [spin, get](const SimulationSpec& s) {
        if (spin->value() != get(s)) {
            QSignalBlocker block(spin);
            spin->setValue(get(s));
        }
    };
    const QString key = keys.value(0);
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, key, label, set](double v) {
        request(
            key, tr("Set %1 to %2").arg(label).arg(v), [set, v](SimulationSpec& s) { set(s, v); },
            true);
    });
    return spin;
}

QWidget* ConfigSection::addCheck(const QString& label, const QStringList& keys, const QString& tip,
                                 Getter<bool> get, Setter<bool> set) {
    auto* box = new QCheckBox(this);
    Field& f = addRow(label, keys, tip, box);
    f.show = [get](const SimulationSpec& s) { return get(s) ? QStringLiteral("1") : QString(); };
    f.load = [box, get](const SimulationSpec& s) {
        QSignalBlocker block(box);
        box->setChecked(get(s));
    };
    const QString key = keys.value(0);
    connect(box, &QCheckBox::toggled, this, [this, key, label, set](bool on) {
        request(
            key, on ? tr("Turn on %1").arg(label) : tr("Turn off %1").arg(label),
            [set, on](SimulationSpec& s) { set(s, on); }, false);
    });
    return box;
}

QWidget* ConfigSection::addChoice(const QString& label, const QStringList& keys, const QString& tip,
                                  const QStringList& items, Getter<int> get, Setter<int> set) {
    auto* combo = new QComboBox(this);
    combo->addItems(items);
    Field& f = addRow(label, keys, tip, combo);
    f.show = [get](const SimulationSpec& s) { return QString::number(get(s)); };
    f.load = [combo, get](const SimulationSpec& s) {
        QSignalBlocker block(combo);
        combo->setCurrentIndex(get(s));
    };
    const QString key = keys.value(0);
    connect(combo, &QComboBox::activated, this, [this, key, label, set, combo](int index) {
        request(
            key, tr("Set %1 to %2").arg(label, combo->itemText(index)),
            [set, index](SimulationSpec& s) { set(s, index); }, false);
    });
    return combo;
}

QuantityEdit* ConfigSection::addQuantity(const QString& label, const QStringList& keys,
                                         const QString& tip, QuantityEdit::Kind kind,
                                         Getter<double> get, Setter<double> set,
                                         Check<double> check) {
    auto* edit = new QuantityEdit(kind, this);
    const int index = static_cast<int>(m_fields.size());
    Field& f =
        addRow(label, keys,
               tip + QStringLiteral("\n\nAccepted: ") + QuantityEdit::acceptedForms(kind), edit);
    f.show = [get](const SimulationSpec& s) { return QString::number(get(s), 'g', 17); };
    f.load = [edit, get](const SimulationSpec& s) {
        const std::optional<double> shown = edit->value();
        if (!shown || *shown != get(s) || !edit->isValid()) {
            edit->setValue(get(s));
            edit->setExternalError({});
        }
    };
    connect(edit, &QuantityEdit::validityChanged, this,
            [this, index](bool, const QString& message) { setMessage(m_fields[index], message); });
    const QString key = keys.value(0);
    connect(edit, &QuantityEdit::valueEdited, this, [this, edit, key, label, set, check](double v) {
        const QString problem = check ? check(v) : QString();
        edit->setExternalError(problem);
        if (!problem.isEmpty())
            return;
        request(
            key, tr("Set %1 to %2").arg(label, edit->text()),
            [set, v](SimulationSpec& s) { set(s, v); }, true);
    });
    return edit;
}

QWidget* ConfigSection::addText(const QString& label, const QStringList& keys, const QString& tip,
                                Getter<QString> get, Setter<QString> set) {
    auto* line = new QLineEdit(this);
    line->setMinimumWidth(180);
    const int index = static_cast<int>(m_fields.size());
    Field& f = addRow(label, keys, tip, line);
    f.show = get;
    f.load = [this, index, line, get, set](const SimulationSpec& s) {
        if (line->text() == get(s))
            return;
        try {
            SimulationSpec typed = s;
            set(typed, line->text());
            if (get(typed) == get(s) && !line->property("invalid").toBool())
                return;
        } catch (const Error&) {
        }
        QSignalBlocker block(line);
        line->setText(get(s));
        setMessage(m_fields[index], {});
    };
    const QString key = keys.value(0);
    connect(line, &QLineEdit::textEdited, this, [this, index, key, label, set](const QString& t) {
        try {
            SimulationSpec probe = m_spec;
            set(probe, t); // validate on a copy: only good text becomes an edit
        } catch (const Error& e) {
            setMessage(m_fields[index], QString::fromStdString(e.message()));
            return;
        }
        setMessage(m_fields[index], {});
        request(
            key, tr("Set %1 to \"%2\"").arg(label, t), [set, t](SimulationSpec& s) { set(s, t); },
            true);
    });
    return line;
}

void ConfigSection::enableWhen(std::function<bool(const SimulationSpec&)> when) {
    m_fields.back().enabledWhen = std::move(when);
}

void ConfigSection::checkWhen(std::function<SpecProblem(const SimulationSpec&)> check) {
    m_fields.back().check = std::move(check);
}

void ConfigSection::setSpec(const SimulationSpec& spec) {
    m_spec = spec;
    m_loading = true;
    for (Field& f : m_fields) {
        // Text the user is still fixing stays, unless this field's value changed (undo, load).
        const QString shown = f.show(spec);
        const bool fixing = !f.typed.isEmpty() && shown == f.lastShown;
        if (!fixing)
            f.load(spec);
        f.lastShown = shown;
        if (f.enabledWhen) {
            const bool on = f.enabledWhen(spec);
            f.editor->setEnabled(on);
            f.labelWidget->setEnabled(on);
        }
        if (f.check) {
            f.problem = f.editor->isEnabled() ? f.check(spec) : SpecProblem{};
            showMessage(f);
        }
    }
    m_loading = false;
    refreshMarks();
}

void ConfigSection::setBaseline(const SimulationSpec* baseline) {
    m_baseline = baseline ? std::optional<SimulationSpec>(*baseline) : std::nullopt;
    refreshMarks();
}

void ConfigSection::refreshMarks() {
    for (Field& f : m_fields) {
        f.changed = m_baseline && f.show(*m_baseline) != f.show(m_spec);
        f.labelWidget->setText(f.changed ? QStringLiteral("\u25CF ") + f.label : f.label);
        QFont font = f.labelWidget->font();
        font.setBold(f.changed);
        f.labelWidget->setFont(font);
        f.labelWidget->setStyleSheet(f.changed ? QStringLiteral("color: #1565c0;") : QString());
        if (f.changed)
            f.labelWidget->setToolTip(
                f.editor->toolTip() +
                tr("\n\nChanged since the last run (was %1).").arg(f.show(*m_baseline)));
        else
            f.labelWidget->setToolTip(f.editor->toolTip());
    }
}

QWidget* ConfigSection::editorForKey(const QString& keyPath) const {
    const QString wanted = normalizedKey(keyPath);
    for (const Field& f : m_fields)
        for (const QString& k : f.keys) {
            const QString alias = normalizedKey(k);
            if (wanted == alias || wanted.endsWith(u'.' + alias))
                return f.editor;
        }
    return nullptr;
}

QStringList ConfigSection::changedFields() const {
    QStringList out;
    for (const Field& f : m_fields)
        if (f.changed)
            out << f.label;
    return out;
}

QStringList ConfigSection::invalidFields() const {
    QStringList out;
    for (const Field& f : m_fields)
        if (isInvalid(f.editor))
            out << f.label;
    return out;
}

bool ConfigSection::isInvalid(const QWidget* editor) const {
    for (const Field& f : m_fields)
        if (f.editor == editor)
            return !f.typed.isEmpty() || (f.problem.blocking && !f.problem.text.isEmpty());
    return false;
}

QLabel* ConfigSection::messageLabel(QWidget* editor) const {
    for (const Field& f : m_fields)
        if (f.editor == editor)
            return f.message;
    return nullptr;
}

} // namespace astrolabe::widgets
