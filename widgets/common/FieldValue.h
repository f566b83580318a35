#pragma once
// The value of a form field whatever its editor (spin box, double spin box, check box, combo
// box), so that a form can remember what the user typed and put it back after a reset.

#include <QVariant>

class QWidget;

namespace astrolabe::widgets {

/// The editor's value: int, double, bool or the combo box's index; invalid for other widgets.
QVariant fieldValue(const QWidget* editor);
/// Sets what fieldValue() returned; other widgets are left alone.
void setFieldValue(QWidget* editor, const QVariant& value);

} // namespace astrolabe::widgets
