#pragma once
// For the readers of ASTRA-sim JSON (astra/, schema/): typed access to a flat ASTRA-sim JSON object
// (the system JSON), reporting wrong types with the key's line. Used by the system reader and the
// settings schema.

#include "core/Error.h"
#include "spec/Diagnostics.h"
#include "yaml/JsonSupport.h"

#include <cmath>
#include <string>

namespace astrolabe::config {

// Typed access to the flat top-level object, reporting wrong types with the key's line.
class AstraJsonObject {
public:
    AstraJsonObject(Diagnostics& diagnostics, const config::JsonDocument& doc)
        : m_diagnostics(diagnostics)
        , m_doc(doc) {}

    using json = nlohmann::json;

    bool has(const std::string& key) const { return m_doc.value.contains(key); }
    const json& value(const std::string& key) const { return m_doc.value.at(key); }
    SourceLocation where(const std::string& key, const std::string& path = {}) const {
        return config::locateJsonKey(m_diagnostics, m_doc.text, key, path.empty() ? key : path);
    }
    void error(const std::string& key, const std::string& message, const std::string& hint = {},
               ErrorKind kind = ErrorKind::Validation) {
        m_diagnostics.error(where(key), message, hint, kind);
    }
    Diagnostics& diagnostics() { return m_diagnostics; }

    bool number(const std::string& key, double& out) {
        if (!has(key))
            return false;
        const json& v = value(key);
        if (!v.is_number()) {
            error(key, "expected a number, found " + config::describeJson(v));
            return false;
        }
        out = v.get<double>();
        return true;
    }

    /// A whole number; JSON floats with an integral value are accepted (upstream casts them).
    bool integer(const std::string& key, int64_t& out) {
        double d = 0;
        if (!number(key, d))
            return false;
        if (d != std::floor(d) || std::fabs(d) > 9e15) {
            error(key, "expected a whole number, found " + config::describeJson(value(key)));
            return false;
        }
        out = static_cast<int64_t>(d);
        return true;
    }

    /// ASTRA-sim's on/off switches are ints (nonzero = on); JSON booleans are accepted too.
    bool flag(const std::string& key, bool& out) {
        if (!has(key))
            return false;
        const json& v = value(key);
        if (v.is_boolean()) {
            out = v.get<bool>();
            return true;
        }
        if (v.is_number()) {
            out = v.get<double>() != 0;
            return true;
        }
        error(key, "expected 0 or 1 (or true/false), found " + config::describeJson(v));
        return false;
    }

    bool text(const std::string& key, std::string& out) {
        if (!has(key))
            return false;
        const json& v = value(key);
        if (!v.is_string()) {
            error(key, "expected a text value, found " + config::describeJson(v));
            return false;
        }
        out = v.get<std::string>();
        return true;
    }

    /// A name looked up through `parse` (which throws an Error listing the valid names).
    template <typename Enum, typename Parse>
    void named(const std::string& key, Enum& out, Parse parse) {
        std::string name;
        if (!text(key, name))
            return;
        try {
            out = parse(name);
        } catch (const Error& e) {
            m_diagnostics.relocate(e, where(key));
        }
    }

private:
    Diagnostics& m_diagnostics;
    const config::JsonDocument& m_doc;
};

} // namespace astrolabe::config
