#pragma once
// Small text helpers the line-oriented readers share.

#include <cstddef>
#include <string_view>
#include <vector>

namespace astrolabe {

/// `text` without the spaces, tabs and line ends (" \t\r\n\v\f") at either end; a view into it.
std::string_view trimmed(std::string_view text);

/// `text` without a leading UTF-8 byte-order mark (spreadsheets and some editors write one),
/// which is no part of a file's first line.
std::string_view withoutByteOrderMark(std::string_view text);

/// The text's lines without their line ends ("\n" or "\r\n"), views into it; a final line end
/// starts no further line.
std::vector<std::string_view> splitLines(std::string_view text);

/// The length of the UTF-8 sequence of two to four bytes at `at`; 0 when there is none (an
/// ASCII byte, a stray continuation byte, a sequence cut short).
size_t utf8SequenceLength(std::string_view text, size_t at);

/// Where `text` stops being text: the offset of its first NUL byte or of its first byte that
/// is neither ASCII nor part of a UTF-8 sequence; npos when there is none (a binary file, or
/// text in a legacy encoding, read as UTF-8 text).
size_t firstNonTextByte(std::string_view text);

} // namespace astrolabe
