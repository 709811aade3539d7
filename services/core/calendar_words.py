"""Calendar words of other languages, as their English name (pure data).

People write across languages in one chat ("the exam is on 27 februar", "mittwochs und freitags
abends", "a casa per natale"): a weekday, a month, a part of the day or a fixed-date holiday in
German, Italian, Spanish, Portuguese or French is read as its English name by the time grammar
(:mod:`services.core.when`, written in full before a field is read) and by the grounding of a
model's plan, where "Wednesday" is supported by "mittwochs".

Each word is given with and without its accents (the grounding compares folded words). Left
out because they are also common words or names elsewhere: "mai" (Italian "never"), "mars",
"mayo", "julio", "marco", "tarde", "mañana" (also "tomorrow"), "noel" and the bare Portuguese
"segunda"… ("second"…); the Portuguese weekdays are read in their "-feira" form. Those words
and a few phrases ("nächste woche", "la semana que viene") are read in a whole time field only
(:func:`field_in_english`), where they cannot mean anything else."""

from __future__ import annotations

import re

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


# Read only in a whole time field (a plan's ``valid_from``/``valid_to``, a todo's ``due``: a
# small model writes them in the person's language), where they cannot be anything else:
# "mañana" (also "morning"), "mai" (it "never"), "im" (typed English "I'm"). Phrases by "|".
_FIELD = {
    "next week": "nächste woche|la semana que viene|la próxima semana|la prossima settimana|"
    "a próxima semana|la semaine prochaine",
    "next month": "nächsten monat|el mes que viene|el próximo mes|il mese prossimo|"
    "o próximo mês|le mois prochain",
    "this weekend": "am wochenende|dieses wochenende|este fin de semana|questo fine settimana|"
    "este fim de semana|ce week-end",
    "tomorrow": "morgen|mañana|domani|amanhã|demain",
    "today": "heute|hoy|oggi|hoje|aujourd'hui",
    "yesterday": "gestern|ayer|ieri|ontem|hier",
    "until": "bis|hasta|fino a|até|jusqu'à",
    "since": "seit|desde|depuis",
    "in": "im|nel|en|em",
    "at": "um|a las|a la|alle|às|à",
    "may": "mai",
}
FIELD_WORDS = {
    form: english
    for english, spelled in _FIELD.items()
    for phrase in spelled.split("|")
    for form in (phrase, fold(phrase))
}
_LONGEST_FIRST = sorted(FIELD_WORDS, key=len, reverse=True)
_FIELD_PHRASE = re.compile(rf"(?<![\w-])(?:{'|'.join(map(re.escape, _LONGEST_FIRST))})(?![\w-])")


def field_in_english(field: str) -> str:
    """A time field's words of another language as English ("nächste woche" → "next week",
    "im mai" → "in may", "mañana" → "tomorrow"); other words as they are."""
    low = field.lower()
    return (
        _FIELD_PHRASE.sub(lambda m: FIELD_WORDS[m[0]], low) if _FIELD_PHRASE.search(low) else field
    )
