#include "common/FieldValue.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

namespace astrolabe::widgets {

QVariant fieldValue(const QWidget* editor) {
    if (const auto* box = qobject_cast<const QSpinBox*>(editor))
        return box->value();
    if (const auto* box = qobject_cast<const QDoubleSpinBox*>(editor))
        return box->value();
    if (const auto* box = qobject_cast<const QCheckBox*>(editor))
        return box->isChecked();
    if (const auto* box = qobject_cast<const QComboBox*>(editor))
        return box->currentIndex();
    return {};
}

void setFieldValue(QWidget* editor, const QVariant& value) {
    if (auto* box = qobject_cast<QSpinBox*>(editor))
        box->setValue(value.toInt());
    else if (auto* box = qobject_cast<QDoubleSpinBox*>(editor))
        box->setValue(value.toDouble());
    else if (auto* box = qobject_cast<QCheckBox*>(editor))
        box->setChecked(value.toBool());
    else if (auto* box = qobject_cast<QComboBox*>(editor))
        box->setCurrentIndex(value.toInt());
}

} // namespace astrolabe::widgets
