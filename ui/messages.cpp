#include "ui/messages.h"

#include <QObject>
#include <QRegularExpression>

namespace rig::ui {
namespace {

bool endsSentence(const QString& s)
{
    return s.endsWith('.') || s.endsWith('!') || s.endsWith('?') || s.endsWith(QChar(0x2026));
}

} // namespace

QString forPeople(const QString& message)
{
    // "rig::assignRoot(): ", "fitTemplate(): ", "rig::io::readObj(): " wherever they stand.
    static const QRegularExpression function(QStringLiteral("\\b(?:[A-Za-z_]\\w*::)*[A-Za-z_]\\w*\\(\\)\\s*:\\s*"));
    QString text = message;
    text.remove(function);
    text = text.trimmed();
    if (text.isEmpty())
        return text;
    if (text[0].isLower())
        text[0] = text[0].toUpper();
    if (!endsSentence(text))
        text += '.';
    return text;
}

QString shortSentence(const QString& message, int maxChars)
{
    const QString text = forPeople(message);
    // The first sentence: up to a full stop followed by a space or a line break.
    static const QRegularExpression end(QStringLiteral("[.!?](\\s|$)|\\n"));
    const QRegularExpressionMatch m = end.match(text);
    QString first = m.hasMatch() ? text.left(m.capturedStart() + (text[m.capturedStart()] == '\n' ? 0 : 1)) : text;
    first = first.trimmed();
    if (first.size() <= maxChars)
        return first;
    int cut = int(first.lastIndexOf(' ', maxChars - 1));
    if (cut < maxChars / 2)
        cut = maxChars - 1;
    return first.left(cut).trimmed() + QChar(0x2026);
}

QString joinSentences(const QString& first, const QString& second)
{
    const QString a = first.trimmed();
    if (a.isEmpty())
        return second.trimmed();
    return (endsSentence(a) ? a : a + '.') + ' ' + second.trimmed();
}

QString limbTitle(Limb limb)
{
    switch (limb) {
    case Limb::Head: return QObject::tr("Head");
    case Limb::LeftHand: return QObject::tr("Left hand");
    case Limb::RightHand: return QObject::tr("Right hand");
    case Limb::LeftFoot: return QObject::tr("Left foot");
    case Limb::RightFoot: return QObject::tr("Right foot");
    }
    return {};
}

} // namespace rig::ui
