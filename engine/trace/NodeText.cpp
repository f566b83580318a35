#include "trace/NodeText.h"

#include <mutex>
#include <ostream>
#include <unordered_map>

namespace astrolabe {

namespace {

struct Table {
    std::mutex mutex;
    std::unordered_map<std::string_view, void*> entries; ///< keys view their entry's text
};

Table& table() {
    // Never destroyed: a NodeText in a static object may outlive any static table.
    static Table* t = new Table;
    return *t;
}

} // namespace

const std::string& NodeText::emptyText() {
    static const std::string empty;
    return empty;
}

NodeText::Entry* NodeText::acquire(std::string_view text) {
    if (text.empty())
        return nullptr;
    Table& t = table();
    std::lock_guard lock(t.mutex);
    const auto it = t.entries.find(text);
    if (it != t.entries.end()) {
        auto* entry = static_cast<Entry*>(it->second);
        // An entry whose count reached 0 is being freed by its last holder (who then takes the
        // mutex): it is never revived, a new one replaces it in the table.
        uint32_t refs = entry->refs.load(std::memory_order_relaxed);
        while (refs != 0 &&
               !entry->refs.compare_exchange_weak(refs, refs + 1, std::memory_order_relaxed))
            ;
        if (refs != 0)
            return entry;
        t.entries.erase(it);
    }
    auto* entry = new Entry;
    entry->text.assign(text);
    t.entries.emplace(entry->text, entry);
    return entry;
}

void NodeText::release(Entry* entry) {
    if (entry->refs.fetch_sub(1, std::memory_order_acq_rel) != 1)
        return;
    Table& t = table();
    {
        std::lock_guard lock(t.mutex);
        const auto it = t.entries.find(entry->text);
        if (it != t.entries.end() && it->second == entry)
            t.entries.erase(it);
    }
    delete entry;
}

std::ostream& operator<<(std::ostream& out, const NodeText& text) {
    return out << text.str();
}

} // namespace astrolabe
