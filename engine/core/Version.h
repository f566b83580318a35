#pragma once

namespace astrolabe {
/// The engine's version, stored with every run for provenance.
const char* engineVersion();
} // namespace astrolabe
