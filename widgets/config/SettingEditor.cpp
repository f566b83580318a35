#include "config/SettingEditor.h"

#include "config/ConfigSection.h"

#include <QDoubleSpinBox>
#include <QObject>
#include <algorithm>
#include <climits>

namespace astrolabe::widgets {
namespace {

using settings::Setting;
using settings::Unit;
using settings::Value;

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QStringList keysOf(const Setting& s) {
    QStringList keys;
    for (const std::string& k : {s.path, s.astraKey, s.compareKey})
        if (!k.empty() && !keys.contains(qs(k)))
            keys << qs(k);
    return keys;
}

// The QuantityEdit kind of a unit and the factor from the setting's unit to the edit's
// canonical one (picoseconds, bytes per second, bytes).
std::optional<std::pair<QuantityEdit::Kind, double>> quantityKind(Unit unit) {
    switch (unit) {
    case Unit::Nanoseconds:
        return std::pair(QuantityEdit::Kind::Time, 1e3);
    case Unit::BytesPerSecond:
        return std::pair(QuantityEdit::Kind::Bandwidth, 1.0);
    case Unit::DecimalGBps:
        return std::pair(QuantityEdit::Kind::Bandwidth, 1e9);
    case Unit::Bytes:
        return std::pair(QuantityEdit::Kind::Size, 1.0);
    case Unit::TeraFlops:
    case Unit::None:
        break;
    }
    return std::nullopt;
}

double clamped(double v, double limit) {
    return std::clamp(v, -limit, limit);
}

QWidget* addEditor(ConfigSection* section, const Setting& s) {
    const SettingPresentation& look = presentationOf(s.path);
    const QString label = QObject::tr(s.label.c_str());
    const QString tip = QObject::tr(s.help.c_str());
    const QStringList keys = keysOf(s);
    const auto shown = [&s](const SimulationSpec& spec) { return s.shownValue(spec); };
    const auto apply = [&s](SimulationSpec& spec, const Value& v) {
        if (s.hooks.edited)
            s.hooks.edited(spec, v);
        else
            s.set(spec, v);
    };
    switch (s.type) {
    case settings::Type::Int:
        return section->addInt(
            label, keys, tip, static_cast<int>(clamped(s.minimum, INT_MAX)),
            static_cast<int>(clamped(s.upperBound(), INT_MAX)),
            [shown](const SimulationSpec& sp) {
                return static_cast<int>(std::get<int64_t>(shown(sp)));
            },
            [apply](SimulationSpec& sp, int v) { apply(sp, static_cast<int64_t>(v)); });
    case settings::Type::Bool:
        return section->addCheck(
            label, keys, tip,
            [shown](const SimulationSpec& sp) { return std::get<bool>(shown(sp)); },
            [apply](SimulationSpec& sp, bool v) { apply(sp, v); });
    case settings::Type::Enum: {
        QStringList items;
        for (size_t i = 0; i < s.choices.size(); ++i)
            items << QObject::tr(choiceLabel(s, i).c_str());
        return section->addChoice(
            label, keys, tip, items,
            [&s, shown](const SimulationSpec& sp) {
                const auto& c = s.choices;
                const auto at = std::find(c.begin(), c.end(), std::get<std::string>(shown(sp)));
                return static_cast<int>(at - c.begin());
            },
            [&s, apply](SimulationSpec& sp, int v) { apply(sp, s.choices.at(v)); });
    }
    case settings::Type::String:
        return section->addText(
            label, keys, tip,
            [shown](const SimulationSpec& sp) { return qs(std::get<std::string>(shown(sp))); },
            [apply](SimulationSpec& sp, const QString& t) { apply(sp, t.toStdString()); });
    case settings::Type::Double:
    case settings::Type::Quantity:
        if (const auto kind = quantityKind(s.unit)) {
            const double factor = kind->second;
            return section->addQuantity(
                label, keys, tip, kind->first,
                [shown, factor](const SimulationSpec& sp) {
                    return std::get<double>(shown(sp)) * factor;
                },
                [apply, factor](SimulationSpec& sp, double v) { apply(sp, v / factor); },
                [&s, &look, factor](double v) {
                    std::string problem = rangeError(s, v / factor, false);
                    if (problem.empty() && look.check)
                        problem = look.check(v / factor);
                    return QObject::tr(problem.c_str());
                });
        }
        {
            QWidget* editor = section->addDouble(
                label, keys, tip, clamped(s.minimum, 1e9), clamped(s.upperBound(), 1e9),
                s.unit == Unit::TeraFlops ? 1 : 3,
                s.unit == Unit::TeraFlops ? QStringLiteral("TFLOP/s") : QString(),
                [shown](const SimulationSpec& sp) { return std::get<double>(shown(sp)); },
                [apply](SimulationSpec& sp, double v) { apply(sp, v); });
            // A peak of 0 is no peak given (the project leaves the key out), not a GPU of 0 FLOP/s.
            if (auto* spin = qobject_cast<QDoubleSpinBox*>(editor);
                spin && s.unit == Unit::TeraFlops && s.minimum == 0)
                spin->setSpecialValueText(QObject::tr("not set"));
            return editor;
        }
    case settings::Type::Custom:
        break;
    }
    QWidget* last = nullptr;
    for (const SettingTextField& f : look.textFields)
        last = section->addText(
            QObject::tr(f.label.c_str()), {qs(f.key), qs(f.astraKey)}, tip,
            [get = f.get](const SimulationSpec& sp) { return qs(get(sp)); },
            [set = f.set](SimulationSpec& sp, const QString& t) { set(sp, t.toStdString()); });
    return last;
}

} // namespace

QWidget* addSettingEditor(ConfigSection* section, const Setting& s) {
    QWidget* editor = addEditor(section, s);
    if (const auto& when = presentationOf(s.path).enabledWhen; editor && when)
        section->enableWhen(when);
    return editor;
}

void addSettingEditors(ConfigSection* section, const settings::Group& group, SettingPage where) {
    for (const Setting& s : group.settings)
        if (presentationOf(s.path).page == where)
            addSettingEditor(section, s);
}

} // namespace astrolabe::widgets
