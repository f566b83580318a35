#pragma once
// Keys given twice in one JSON object. JSON parsers (nlohmann, protobuf's) keep the last of two
// equal keys without a word, and so do the tools whose files we read, so a value edited in one
// place and left in another silently does nothing: every JSON reader refuses them instead. A
// scan of the text, independent of any parser, so that every layer can use it.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace astrolabe {

struct RepeatedJsonKey {
    std::string key;   ///< as written between the quotes (escapes not decoded)
    int firstLine = 0; ///< 1-based, of the first occurrence's opening quote
    int line = 0;      ///< 1-based, of the repeat's opening quote
    int column = 0;
};

/// The keys given twice in one object of the JSON `text`, in text order, at most `limit`. Linear
/// in the text; text that is not JSON is scanned as far as it goes (the parser reports it).
std::vector<RepeatedJsonKey> repeatedJsonKeys(std::string_view text, size_t limit = 100);

/// Throws astrolabe::Error (kind Input) naming `file`, the line and the key of the first repeated
/// key in `text`, if any.
void refuseRepeatedJsonKeys(std::string_view text, const std::string& file);

/// "the key \"k\" is given twice in one object, on lines 3 and 7" (or "both on line 3").
std::string repeatedJsonKeyMessage(const RepeatedJsonKey& repeat);

} // namespace astrolabe
