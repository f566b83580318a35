#pragma once
// Small text helpers the line-oriented readers share.

#include <string_view>

namespace astrolabe {

/// `text` without the spaces, tabs and line ends (" \t\r\n\v\f") at either end; a view into it.
std::string_view trimmed(std::string_view text);

/// `text` without a leading UTF-8 byte-order mark (spreadsheets and some editors write one),
/// which is no part of a file's first line.
std::string_view withoutByteOrderMark(std::string_view text);

} // namespace astrolabe
