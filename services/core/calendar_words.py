"""Calendar words of other languages, as their English name (pure data).

People write across languages in one chat ("the exam is on 27 februar", "mittwochs und freitags
abends", "a casa per natale"): a weekday, a month, a part of the day or a fixed-date holiday in
German, Italian, Spanish, Portuguese or French is read as its English name by the time grammar
(:mod:`services.core.when`, written in full before a field is read) and by the grounding of a
model's plan, where "Wednesday" is supported by "mittwochs".

Each word is given with and without its accents (the grounding compares folded words). Left
out because they are also common words or names elsewhere: "mai" (Italian "never"), "mars",
"mayo", "julio", "marco", "tarde", "mañana" (also "tomorrow"), "noel" and the bare Portuguese
"segunda"… ("second"…); the Portuguese weekdays are read in their "-feira" form."""

from __future__ import annotations

from services.core.text import fold

_DAYS = {
    "monday": "montag montags lunedì lunes lundi segunda-feira",
    "tuesday": "dienstag dienstags martedì martes mardi terça-feira",
    "wednesday": "mittwoch mittwochs mercoledì miércoles mercredi quarta-feira",
    "thursday": "donnerstag donnerstags giovedì jueves jeudi quinta-feira",
    "friday": "freitag freitags venerdì viernes vendredi sexta-feira",
    "saturday": "samstag samstags sonnabend sabato sábado samedi",
    "sunday": "sonntag sonntags domenica domingo dimanche",
}
_MONTHS = {
    "january": "januar jänner gennaio enero janeiro janvier",
    "february": "februar feber febbraio febrero fevereiro février",
    "march": "märz marzo março",
    "april": "aprile abril avril",
    "may": "maggio maio",
    "june": "juni giugno junio junho juin",
    "july": "juli luglio julho juillet",
    "august": "agosto août",
    "september": "settembre septiembre setiembre setembro septembre",
    "october": "oktober ottobre octubre outubro octobre",
    "november": "noviembre novembro novembre",
    "december": "dezember dicembre diciembre dezembro décembre",
}
_PARTS = {
    "morning": "morgens vormittags mattina manhã matin",
    "afternoon": "nachmittag nachmittags pomeriggio après-midi",
    "evening": "abend abends sera soir",
    "night": "nachts notte noche noite nuit",
}
HOLIDAYS = {  # the English name, which the time grammar reads as its date
    "christmas": "weihnachten natale navidad natal",
    "christmas eve": "heiligabend vigilia nochebuena",
    "new year's eve": "silvester",
}


def _names(table: dict[str, str]) -> dict[str, str]:
    return {
        form: english
        for english, spelled in table.items()
        for word in spelled.split()
        for form in (word, fold(word))
    }


# other languages' weekdays, months and parts of the day → the English word
FOREIGN_NAMES = {**_names(_DAYS), **_names(_MONTHS), **_names(_PARTS)}
FOREIGN_HOLIDAYS = _names(HOLIDAYS)
