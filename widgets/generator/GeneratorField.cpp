#include "generator/GeneratorField.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <algorithm>
#include <utility>

namespace astrolabe::widgets {

using generate::GeneratorSetting;
using generate::GenType;
using generate::GenValue;

namespace {

QString tr(const std::string& text) {
    return QObject::tr(text.c_str());
}

int choiceIndex(const GeneratorSetting& s, const std::string& text) {
    const auto at = std::find(s.choices.begin(), s.choices.end(), text);
    return at == s.choices.end() ? 0 : static_cast<int>(at - s.choices.begin());
}

} // namespace

QWidget* makeGeneratorField(const GeneratorSetting& s) {
    QWidget* field = nullptr;
    switch (s.type) {
    case GenType::Int:
    case GenType::Size: {
        auto* box = new QSpinBox;
        box->setRange(static_cast<int>(s.minimum), static_cast<int>(s.maximum));
        box->setGroupSeparatorShown(true);
        field = box;
        break;
    }
    case GenType::Double: {
        auto* box = new QDoubleSpinBox;
        box->setRange(s.minimum, s.maximum);
        box->setDecimals(s.decimals);
        box->setSuffix(tr(s.unit));
        if (s.step > 0)
            box->setSingleStep(s.step);
        field = box;
        break;
    }
    case GenType::Bool:
        field = new QCheckBox;
        break;
    case GenType::Choice:
    case GenType::Name: {
        auto* box = new QComboBox;
        for (const std::string& item : s.choiceLabels.empty() ? s.choices : s.choiceLabels)
            box->addItem(tr(item));
        field = box;
        break;
    }
    }
    if (!s.tip.empty())
        field->setToolTip(tr(s.tip));
    return field;
}

void showGeneratorValue(const GeneratorSetting& s, QWidget* field,
                        const generate::GeneratorSpec& spec) {
    const GenValue value = s.get(spec);
    switch (s.type) {
    case GenType::Int:
        static_cast<QSpinBox*>(field)->setValue(static_cast<int>(std::get<int64_t>(value)));
        return;
    case GenType::Size:
        static_cast<QSpinBox*>(field)->setValue(static_cast<int>(std::get<int64_t>(value) >> 20));
        return;
    case GenType::Double:
        static_cast<QDoubleSpinBox*>(field)->setValue(std::get<double>(value));
        return;
    case GenType::Bool:
        static_cast<QCheckBox*>(field)->setChecked(std::get<bool>(value));
        return;
    case GenType::Choice:
        static_cast<QComboBox*>(field)->setCurrentIndex(
            choiceIndex(s, std::to_string(std::get<int64_t>(value))));
        return;
    case GenType::Name:
        static_cast<QComboBox*>(field)->setCurrentIndex(
            choiceIndex(s, std::get<std::string>(value)));
        return;
    }
}

GenValue generatorFieldValue(const GeneratorSetting& s, const QWidget* field) {
    switch (s.type) {
    case GenType::Int:
        return static_cast<int64_t>(static_cast<const QSpinBox*>(field)->value());
    case GenType::Size:
        return static_cast<int64_t>(static_cast<const QSpinBox*>(field)->value()) << 20;
    case GenType::Double:
        return static_cast<const QDoubleSpinBox*>(field)->value();
    case GenType::Bool:
        return static_cast<const QCheckBox*>(field)->isChecked();
    case GenType::Choice:
    case GenType::Name:
        break;
    }
    const std::string& choice =
        s.choices.at(std::max(0, static_cast<const QComboBox*>(field)->currentIndex()));
    if (s.type == GenType::Choice)
        return static_cast<int64_t>(std::stoi(choice));
    return choice;
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
