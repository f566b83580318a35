#pragma once
// Error messages of any length in a dialog that fits the screen: a short summary in the box,
// the whole message (every missing file, every line of a long error) in a scrollable,
// selectable details area under "Show Details...", and Ctrl+C copies it all.

#include <QString>

class QMessageBox;
class QWidget;

namespace astrolabe::widgets {

/// A message cut for a dialog: `summary` alone when the message is short; otherwise its first
/// lines with the count of the rest, and `details` the whole message.
struct ErrorText {
    QString summary;
    QString details; ///< empty when the summary is the whole message
};

inline constexpr int kErrorSummaryLines = 6;
inline constexpr int kErrorSummaryChars = 480;
/// Summary lines longer than this end in "..."; the whole line is in the details.
inline constexpr int kErrorLineChars = 160;

ErrorText splitErrorText(const QString& message);
/// `line` cut to kErrorLineChars, ending in "..." when it was longer.
QString elideErrorLine(const QString& line);

/// A warning box (not yet shown) with the summary as its text and the details, if any, as its
/// detailed text. Its height stays far below 600 px whatever the message's length.
QMessageBox* createErrorBox(QWidget* parent, const QString& title, const QString& message);

} // namespace astrolabe::widgets
