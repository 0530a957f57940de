#pragma once
/// @file rig_project.h
/// The facade between the engine and its two front ends (GUI and CLI).
///
/// A `RigProject` is a value: each stage result is an immutable
/// `shared_ptr<const T>`, so copying a project is a cheap snapshot that a worker
/// thread can read while the GUI keeps showing the previous one. Setting the
/// result of a stage clears the results of the stages after it.

#include "core/project/character_source.h"

#include <memory>

namespace rig {

class RigProject {
public:
    /// The loaded character, or null before anything is loaded.
    const std::shared_ptr<const LoadedCharacter>& character() const { return m_character; }
    bool hasCharacter() const { return m_character != nullptr; }

    /// Replaces the character (and clears every later stage).
    void setCharacter(std::shared_ptr<const LoadedCharacter> character);

private:
    std::shared_ptr<const LoadedCharacter> m_character;
};

} // namespace rig
