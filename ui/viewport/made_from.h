#pragma once
/// @file made_from.h
/// What a product of the viewport (a GPU buffer, a binding, a CPU-deformed
/// copy) was last made from, so that it is made again only when one of its
/// inputs changed: the viewport's replacement for dirty flags. Shared results
/// (`shared_ptr<const T>`, immutable) compare by identity, the address of the
/// object, which the copy held here keeps alive so that a newer object cannot
/// be given the same address; small values (a flag, an id, a revision count)
/// compare by value. Plain C++ (no Qt, no GL): the tests reach it.

#include <optional>
#include <tuple>
#include <utility>

namespace rig::ui {

/// `Inputs` are shared pointers or values with `==`.
template <class... Inputs>
class MadeFrom {
public:
    /// True until `made()` is called, and after it while any input differs from those it was given.
    bool stale(const Inputs&... inputs) const { return !m_inputs || !(*m_inputs == std::tie(inputs...)); }
    /// The product is now made from `inputs`.
    void made(Inputs... inputs) { m_inputs.emplace(std::move(inputs)...); }
    /// Nothing is made (a new GL context: every buffer again); the inputs held are released.
    void forget() { m_inputs.reset(); }

private:
    std::optional<std::tuple<Inputs...>> m_inputs;
};

} // namespace rig::ui
