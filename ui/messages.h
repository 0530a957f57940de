#pragma once
/// @file messages.h
/// Error and notice texts as the artist reads them (issue 19 item 9). Core's
/// messages start with the function that raised them ("rig::assignRoot(): the
/// lhand branch …"): useful in the log, noise in a dialog. The UI presents
/// `forPeople()` of a message (function names gone, a capital first letter, a
/// full stop at the end) and puts `shortSentence()` of it in the status bar;
/// the original text goes to the log unchanged.

#include "core/skeleton/end_nodes.h"

#include <QString>

namespace rig::ui {

/// `message` without the function names that prefix it or its parts
/// ("ns::fn(): ", "fn(): "), starting with a capital and ending with a full stop.
QString forPeople(const QString& message);

/// The first sentence of `forPeople(message)`, cut at a word to at most `maxChars`
/// characters (with "…" when cut): what fits a status bar.
QString shortSentence(const QString& message, int maxChars = 110);

/// `first` and `second` as two sentences: a full stop after `first` when it has none.
QString joinSentences(const QString& first, const QString& second);

/// The display name of a limb ("Head", "Left hand", ...): the Rig dock and the viewport's labels.
QString limbTitle(Limb limb);

} // namespace rig::ui
