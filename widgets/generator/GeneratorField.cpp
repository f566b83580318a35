#include "generator/GeneratorField.h"

#include "generator/GeneratorPresentation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <algorithm>
#include <utility>

namespace astrolabe::widgets {

using generate::GeneratorSetting;
using settings::Type;
using settings::Value;

namespace {

QString tr(const std::string& text) {
    return QObject::tr(text.c_str());
}

int choiceIndex(const GeneratorSetting& s, const std::string& text) {
    const auto at = std::find(s.choices.begin(), s.choices.end(), text);
    return at == s.choices.end() ? 0 : static_cast<int>(at - s.choices.begin());
}

/// A combo box: an Enum, or an Int limited to its choices.
bool isChoice(const GeneratorSetting& s) {
    return s.type == Type::Enum || (s.type == Type::Int && !s.choices.empty());
}

} // namespace

QWidget* makeGeneratorField(const GeneratorSetting& s) {
    const GeneratorFieldLook look = generatorFieldLook(s);
    QWidget* field = nullptr;
    switch (isChoice(s) ? Type::Enum : s.type) {
    case Type::Enum: {
        auto* box = new QComboBox;
        for (const std::string& item : look.choiceLabels.empty() ? s.choices : look.choiceLabels)
            box->addItem(tr(item));
        field = box;
        break;
    }
    case Type::Int:
    case Type::Quantity: { // a size in whole MiB
        auto* box = new QSpinBox;
        const int shift = s.type == Type::Quantity ? 20 : 0;
        box->setRange(static_cast<int>(int64_t(s.minimum) >> shift),
                      static_cast<int>(int64_t(s.maximum) >> shift));
        box->setGroupSeparatorShown(true);
        field = box;
        break;
    }
    case Type::Double: {
        auto* box = new QDoubleSpinBox;
        box->setRange(s.minimum, s.maximum);
        box->setDecimals(look.decimals);
        box->setSuffix(tr(look.suffix));
        if (look.step > 0)
            box->setSingleStep(look.step);
        field = box;
        break;
    }
    case Type::Bool:
        field = new QCheckBox;
        break;
    case Type::String: // the generator has none (GeneratorSettings test)
    case Type::Custom:
        break;
    }
    if (!look.tip.empty())
        field->setToolTip(tr(look.tip));
    return field;
}

void showGeneratorValue(const GeneratorSetting& s, QWidget* field,
                        const generate::GeneratorSpec& spec) {
    const Value value = s.get(spec);
    if (isChoice(s)) {
        static_cast<QComboBox*>(field)->setCurrentIndex(
            choiceIndex(s, s.type == Type::Int ? std::to_string(std::get<int64_t>(value))
                                               : std::get<std::string>(value)));
        return;
    }
    switch (s.type) {
    case Type::Int:
        static_cast<QSpinBox*>(field)->setValue(static_cast<int>(std::get<int64_t>(value)));
        return;
    case Type::Quantity: // whole MiB
        static_cast<QSpinBox*>(field)->setValue(static_cast<int>(std::get<int64_t>(value) >> 20));
        return;
    case Type::Double:
        static_cast<QDoubleSpinBox*>(field)->setValue(std::get<double>(value));
        return;
    case Type::Bool:
        static_cast<QCheckBox*>(field)->setChecked(std::get<bool>(value));
        return;
    case Type::Enum:
    case Type::String:
    case Type::Custom:
        return;
    }
}

Value generatorFieldValue(const GeneratorSetting& s, const QWidget* field) {
    if (isChoice(s)) {
        const std::string& choice =
            s.choices.at(std::max(0, static_cast<const QComboBox*>(field)->currentIndex()));
        if (s.type == Type::Int)
            return static_cast<int64_t>(std::stoi(choice));
        return choice;
    }
    switch (s.type) {
    case Type::Int:
        return static_cast<int64_t>(static_cast<const QSpinBox*>(field)->value());
    case Type::Quantity:
        return static_cast<int64_t>(static_cast<const QSpinBox*>(field)->value()) << 20;
    case Type::Double:
        return static_cast<const QDoubleSpinBox*>(field)->value();
    case Type::Bool:
        return static_cast<const QCheckBox*>(field)->isChecked();
    case Type::Enum:
    case Type::String:
    case Type::Custom:
        break;
    }
    return {};
}

void onGeneratorFieldChanged(QWidget* field, QObject* context, std::function<void()> changed) {
    if (auto* box = qobject_cast<QSpinBox*>(field))
        QObject::connect(box, &QSpinBox::valueChanged, context, std::move(changed));
    else if (auto* dbox = qobject_cast<QDoubleSpinBox*>(field))
        QObject::connect(dbox, &QDoubleSpinBox::valueChanged, context, std::move(changed));
    else if (auto* check = qobject_cast<QCheckBox*>(field))
        QObject::connect(check, &QCheckBox::toggled, context, std::move(changed));
    else if (auto* combo = qobject_cast<QComboBox*>(field))
        QObject::connect(combo, &QComboBox::currentIndexChanged, context, std::move(changed));
}

} // namespace astrolabe::widgets
