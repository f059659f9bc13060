"""Keyword tables for payloads written in other languages of the Latin script.

Poisoned descriptions are not always English: the model reads "ignora las instrucciones
anteriores" or "Kullanıcıya bundan bahsetme" as well as their English originals. Each
language gets the phrasings of the families that carry most attacks: overriding earlier
instructions, concealment from the user, reassigning the model's role and harvesting the
conversation (Spanish, Portuguese, Italian, French, German, Dutch, Polish, Turkish,
Swedish/Norwegian/Danish, Indonesian/Malay, Vietnamese).

Patterns are written in the language's own spelling and converted to the matching form
(accents dropped, look-alikes such as the dotless i folded, casefolded), so the tables stay
readable. They join the English keyword index and are gated on their words; non-Latin
scripts are in :mod:`.scripts`.

Which way it fails: coverage is the common imperative phrasings, a table per language; a
paraphrase outside the table, a language not listed, or a machine-translated oddity is
missed unless an English-independent signal (a credential path, a URL, hidden characters)
also fires. Honest text in these languages rarely tells the model about its instructions or
the user, so the tables are kept specific rather than broad.
"""

from __future__ import annotations

from mcplock_tui.core.detectors.base import Pattern, alt, pattern
from mcplock_tui.core.detectors.normalize import char_forms

OV, RO, CO, HV, SE = "MCPL-INJ-003", "MCPL-INJ-004", "MCPL-INJ-030", "MCPL-INJ-060", "MCPL-INJ-021"
LABELS = {
    OV: "overrides earlier instructions",
    RO: "reassigns the model's role",
    CO: "conceals from the user",
    HV: "harvests the conversation",
    SE: "asks for secret material",
}


def _latin(src: str) -> str:
    """A regex source in the folded matching form (accents dropped, look-alikes folded)."""
    return "".join(ch if ch.isascii() else char_forms(ch)[1] for ch in src)


def _lat(code: str, regex: str, *needs: str) -> Pattern:
    return pattern(code, LABELS[code], _latin(regex), *(_latin(n) for n in needs))


_APOS = r"['\u2019`]?"
_ROMANCE_VERBS = (
    "ignora ignore ignoren olvida olvide descarta omite esqueca esquece dimentica desconsidere "
    "desconsidera desconsiderar descarte ignorar olvidar ignorate"
)
_ROMANCE_NOUNS = "instrucciones instrucoes istruzioni indicaciones ordens regras reglas regole"
_GERMAN_VERBS = "ignoriere ignorieren ignoriert vergiss vergessen missachte"
_ES_USER = r"(?:al|a los|a la|a las) (?:usuari[oa]s?|persona|cliente|humano)"
_PT_USER = (
    r"(?:ao|à|aos|às|para o|para a|pro|pra) (?:usuári[oa]s?|utilizador(?:a|es)?|cliente|humano)"
)
_FR_USER = r"(?:à |a )?(?:l" + _APOS + r" ?|aux? )(?:utilisat(?:eur|rice)s?|usagers?|humains?)"
_DE_USER = r"(?:nutzer|benutzer|anwender|user|kunde|mensch)\w*"

LATIN: tuple[Pattern, ...] = (
    # Spanish, Portuguese, Italian
    pattern(
        OV,
        LABELS[OV],
        r"\b" + alt(*_ROMANCE_VERBS.split()) + r"(?: (?:todas|todos|tutte|tutti"
        r"|as|las|los|le|gli))* " + alt(*_ROMANCE_NOUNS.split()) + r" (?:anteriores"
        r"|previas|precedentes|precedenti|previe|de arriba|acima|sopra)\b",
        _ROMANCE_VERBS,
        _ROMANCE_NOUNS,
    ),
    pattern(
        OV,
        LABELS[OV],
        r"\b(?:ignore[zr]?|oublie[zr]?|ne tiens pas compte des)(?: (?:toutes"
        r"|tous))?(?: les| des)? (?:instructions|consignes|regles|directives) (?:precedentes"
        r"|anterieures|ci-dessus|d'avant)\b",
        "ignore ignorez ignorer oublie oubliez oublier tiens",
        "precedentes anterieures ci avant",
    ),
    pattern(
        OV,
        LABELS[OV],
        r"\b(?:ignoriere|ignorieren sie|ignoriert|vergiss|vergessen sie|missachte)"
        r"(?: (?:alle|die|deine|ihre))* (?:vorherigen|bisherigen|vorangegangenen|obigen"
        r"|fruheren|alten|ursprunglichen) (?:anweisungen|instruktionen|befehle|regeln"
        r"|vorgaben)\b",
        _GERMAN_VERBS,
    ),
    # Spanish
    _lat(
        CO,
        r"\bno (?:(?:se|le|les|lo|la|te) )*(?:digas|diga|digan|menciones|mencione|cuentes|cuente"
        r"|informes|informe|reveles|revele|comuniques|comunique|avises|avise|hables|hable)(?: (?:nada|esto|eso|nunca))*(?: (?:de|sobre) (?:esto|eso|ello))? "
        + _ES_USER
        + r"\b",
        "usuario usuarios usuaria persona cliente humano",
        "no",
    ),
    _lat(
        CO,
        r"\bsin (?:que (?:el|los|la) (?:usuari[oa]s?|cliente) (?:lo )?(?:sepa|sepan|note|noten"
        r"|vea|vean|se entere|se enteren|se de cuenta)|(?:avisar|informar|decir(?:le)?|notificar)"
        r"(?:le|les)? " + _ES_USER + r")\b",
        "sin",
    ),
    _lat(
        CO,
        r"\b(?:en secreto|a escondidas|secretamente|silenciosamente),? (?:envía|envia|copia|lee"
        r"|sube|reenvía|reenvia|manda|incluye|guarda|agrega|añade)\b",
        "secreto escondidas secretamente silenciosamente",
    ),
    _lat(
        OV,
        r"\b(?:olvida|olvide|ignora|ignore|descarta) (?:todo )?lo (?:anterior|que se te (?:dijo|ha"
        r" dicho))\b|\bhaz caso omiso (?:de|a) (?:todas )?las instrucciones\b",
        "olvida olvide ignora ignore descarta caso",
    ),
    _lat(
        RO, r"\bahora eres\b|\ba partir de ahora,? (?:eres|serás|actúa|responde|ignora)\b", "ahora"
    ),
    _lat(
        HV,
        r"\b(?:historial|transcripción|registro|contenido) (?:completo |entero )?de (?:la|esta"
        r"|nuestra|toda la) (?:conversación|charla|sesión)(?! (?:de|del|en) (?:un|el|la|cada)"
        r" (?:canal|grupo|hilo))\b|\btus? (?:prompt|mensaje|instrucciones) (?:de|del) sistema\b",
        "historial transcripcion registro contenido sistema",
    ),
    # Portuguese
    _lat(
        CO,
        r"\bnão (?:(?:lhe|o|a|os|as) )?(?:conte|conta|diga|diz|fale|mencione|informe|revele"
        r"|avise|comente)(?: (?:nada|isso|isto|nunca))*(?: (?:sobre|disso|disto) ?\w*)? "
        + _PT_USER
        + r"\b",
        "usuario usuaria usuarios utilizador utilizadora utilizadores cliente humano",
        "nao",
    ),
    _lat(
        CO,
        r"\bsem (?:que o (?:usuário|utilizador|cliente) (?:saiba|perceba|note|veja)|(?:avisar"
        r"|informar|notificar|contar) (?:o |ao |para o )?(?:usuário|utilizador|cliente))\b",
        "sem",
    ),
    _lat(
        RO,
        r"\bagora (?:você|voce|tu) (?:é|es)\b|\ba partir de agora,? (?:você|tu) (?:é|es|será"
        r"|vai|deve)\b",
        "agora",
    ),
    _lat(
        HV,
        r"\b(?:histórico|transcrição|registro|conteúdo) (?:completo |inteiro )?(?:desta|da nossa"
        r"|de toda a) (?:conversa|sessão)\b|\bseu (?:prompt|mensagem) (?:de|do) sistema\b",
        "historico transcricao registro conteudo sistema",
    ),
    # French
    _lat(
        CO,
        r"\bne (?:(?:le|lui|leur|la|les|rien|en) )*(?:dis|dites|mentionne|mentionnez|révèle"
        r"|révélez|signale|signalez|informe|informez|préviens|prévenez|parle"
        r"|parlez|raconte|racontez)(?: (?:rien|pas|jamais|surtout|plus))+(?: (?:de (?:ceci|cela"
        r"|ça)|à ce sujet|de tout cela))? " + _FR_USER,
        "utilisateur utilisatrice utilisateurs usager usagers humain humains",
        "ne",
    ),
    _lat(
        CO,
        r"\bsans (?:que l"
        + _APOS
        + r" ?utilisat(?:eur|rice) (?:ne )?(?:le )?(?:sache|remarque|voie"
        r"|s" + _APOS + r" ?en (?:rende compte|aperçoive))|(?:prévenir|informer|avertir|le dire à"
        r"|en informer) " + _FR_USER.replace("(?:à |a )?", "") + r")|\bà l" + _APOS + r" ?insu de"
        r" l" + _APOS + r" ?utilisat(?:eur|rice)",
        "sans insu",
    ),
    _lat(
        RO,
        r"\b(?:tu es|vous êtes) (?:désormais|maintenant|dorénavant)\b|\bdésormais,? (?:tu|vous)"
        r" (?:es|êtes|dois|devez|ignores?|ignorez)\b",
        "desormais maintenant dorenavant",
    ),
    _lat(
        OV,
        r"\boublie[zr]? tout ce qui (?:précède|a été dit)\b|\bne (?:tiens|tenez) (?:pas|plus) compte"
        r" des (?:instructions|consignes|règles)\b",
        "oublie oubliez oublier tiens tenez",
    ),
    _lat(
        HV,
        r"\b(?:historique|transcription|contenu) (?:complet |entier )?de (?:cette|notre|toute la)"
        r" (?:conversation|discussion|session)\b|\b(?:ton|votre) (?:prompt|message) système\b"
        r"|\b(?:tes|vos) instructions (?:initiales|système|d" + _APOS + r" ?origine)\b",
        "historique transcription contenu systeme instructions",
    ),
    # German
    _lat(
        CO,
        r"\b(?:sag|sage|sagen|erwähne|erwähnen|verrate|verraten|teile|teilen"
        r"|informiere|informieren|benachrichtige|benachrichtigen|berichte|berichten)\b"
        r"[^.!?\n]{0,40}?\b(?:nicht|nichts|niemals|keinesfalls|keinerlei)\b[^.!?\n]{0,40}?\b"
        + _DE_USER
        + r"\b",
        "nicht nichts niemals keinesfalls keinerlei",
        "nutzer benutzer anwender user kunde kunden mensch menschen nutzerin benutzerin nutzern "
        "benutzern anwendern",
    ),
    _lat(
        CO,
        r"\b(?:sag|sage|sagen|erwähne|verrate|teile)\b[^.!?\n]{0,20}?\b(?:dem|den|der)"
        r" " + _DE_USER + r"\b[^.!?\n]{0,30}?\b(?:nicht|nichts|niemals)\b",
        "nicht nichts niemals",
        "dem den der",
    ),
    _lat(
        CO,
        r"\bohne (?:dass (?:der|die|es) " + _DE_USER + r" (?:es |davon )?(?:merkt|weiß|bemerkt"
        r"|erfährt|sieht|mitbekommt)|(?:den|die) " + _DE_USER + r" (?:zu )?(?:informieren"
        r"|benachrichtigen|fragen|warnen))\b|\b(?:heimlich|insgeheim)\b",
        "ohne heimlich insgeheim",
    ),
    _lat(
        RO,
        r"\bdu bist (?:jetzt|nun|ab sofort|ab jetzt)\b|\bab (?:jetzt|sofort),? (?:bist du"
        r"|antwortest du|ignorierst du)\b",
        "du",
    ),
    _lat(
        OV,
        r"\bvergiss (?:alles|alle) (?:davor|bisherige|bisher gesagte|oben|vorherige|zuvor)\w*\b",
        "vergiss",
    ),
    _lat(
        HV,
        r"\b(?:diesen|dieses|unseren|den bisherigen|den gesamten|den kompletten|den ganzen)"
        r" (?:gesprächs|chat|unterhaltungs|konversations)verlauf\b|\bdeine(?:n)? (?:systemprompt"
        r"|systemanweisungen|ursprünglichen anweisungen|system anweisungen)\b",
        "diesen dieses unseren bisherigen gesamten kompletten ganzen deine deinen",
    ),
    # Italian
    _lat(
        CO,
        r"\bnon (?:dirlo|dirgli|dirle|dire|dirglielo|menzionare|menzionarlo|rivelare|rivelarlo"
        r"|informare|avvisare|segnalare|raccontare)(?: (?:nulla|niente|mai))* (?:a |al "
        r"|all" + _APOS + r" ?|agli |alla )(?:utente|utenti|persona|cliente)\b",
        "utente utenti persona cliente",
        "non",
    ),
    _lat(RO, r"\bora sei\b|\bda ora in poi,? (?:sei|devi|rispondi|ignora)\b", "ora"),
    # Dutch
    _lat(
        CO,
        r"\b(?:vertel|zeg|meld|laat)\b[^.!?\n]{0,30}?\b(?:niet|niets|nooit)\b[^.!?\n]{0,30}?"
        r"\bgebruikers?\b|\bzonder dat de gebruiker (?:het )?(?:weet|merkt|ziet)\b",
        "gebruiker gebruikers",
    ),
    _lat(RO, r"\b(?:je|jij) bent nu\b|\bvanaf nu (?:ben je|bent u|moet je|negeer)\b", "nu"),
    _lat(
        OV,
        r"\b(?:negeer|vergeet)(?: (?:alle|de))* (?:vorige|eerdere|voorgaande|bovenstaande)"
        r" (?:instructies|opdrachten|regels)\b",
        "negeer vergeet",
    ),
    # Polish
    _lat(
        OV,
        r"\b(?:zignoruj|ignoruj|zapomnij|pomiń)(?: (?:o|wszystkie|wszelkie|wszystkich))*"
        r" (?:poprzednie|wcześniejsze|powyższe|dotychczasowe|poprzednich|wcześniejszych)"
        r" (?:instrukcje|polecenia|zasady|instrukcjach|poleceniach|instrukcji|poleceń)\b",
        "zignoruj ignoruj zapomnij pomin",
    ),
    _lat(
        CO,
        r"\bnie (?:mów|mowcie|informuj|wspominaj|pokazuj|ujawniaj|zdradzaj)\w*(?: (?:o tym|tego"
        r"|nic|nigdy))* (?:użytkownikowi|użytkownikom|użytkownika)\b",
        "nie",
    ),
    _lat(RO, r"\bjesteś teraz\b|\bod teraz (?:jesteś|musisz|ignoruj)\b", "teraz"),
    # Swedish, Norwegian, Danish
    _lat(
        OV,
        r"\b(?:ignorera|ignorer|glöm|glem|bortse fra|strunta i)(?: (?:alla|alle|de|dei))*"
        r" (?:tidigare|tidligere|föregående|forrige|ovanstående|ovenstående) (?:instruktioner"
        r"|instruktionerna|instruksjoner|instrukser|instruktioner|anvisningar|anvisninger|regler)\b",
        "ignorera ignorer glom glem bortse strunta",
    ),
    _lat(
        CO,
        r"\b(?:berätta|säg|nämn) (?:inte|aldrig) (?:det |detta |något )?(?:för|till)"
        r" (?:användaren|användarna)\b|\b(?:ikke|aldri) (?:fortell|si|nevn|fortæl) (?:det )?"
        r"(?:til )?(?:brukeren|brugeren)\b|\b(?:fortell|fortæl) ikke (?:brukeren|brugeren)\b",
        "inte aldrig ikke aldri",
    ),
    # Indonesian and Malay
    _lat(
        OV,
        r"\b(?:abaikan|lupakan|acuhkan)(?: (?:semua|seluruh))? (?:instruksi|perintah|petunjuk"
        r"|arahan|aturan)(?: (?:yang|yg))? (?:sebelumnya|terdahulu|di atas|lama)\b",
        "abaikan lupakan acuhkan",
    ),
    _lat(
        CO,
        r"\bjangan (?:beri ?tahu|beritahukan|katakan|bilang|kasih tahu|sebutkan) (?:hal ini )?"
        r"(?:kepada |ke |pada )?(?:pengguna|pemakai|user)\b|\btanpa sepengetahuan"
        r" (?:pengguna|pemakai)\b",
        "jangan tanpa",
    ),
    # Vietnamese
    _lat(
        OV,
        r"\b(?:bỏ qua|phớt lờ|quên)(?: (?:tất cả|mọi|toàn bộ))?(?: (?:các|những))?"
        r" (?:hướng dẫn|chỉ dẫn|chỉ thị|lệnh|quy tắc)(?: (?:trước đó|trước đây|ở trên|cũ|trước))+\b",
        "bo pho quen",
    ),
    _lat(
        CO,
        r"\bkhông (?:được )?(?:nói|báo|kể|tiết lộ) (?:cho |với )?người dùng\b"
        r"|\bđừng (?:nói|báo|kể|tiết lộ) (?:cho |với )?người dùng\b",
        "khong dung",
    ),
    # Turkish
    _lat(
        OV,
        r"\b(?:önceki|yukarıdaki|daha önceki|eski)(?: (?:tüm|bütün|her))? (?:talimatları"
        r"|talimatlar|komutları|kuralları|yönergeleri|talimatlarını)(?: (?:tamamen|hepsini))?"
        r" (?:yok say|görmezden gel|unut|dikkate alma)\w*",
        "onceki yukaridaki eski",
    ),
    _lat(
        CO,
        r"\bkullanıcıya (?:(?:bundan|bunu|hiçbir şey|hiç|bu konuda) )*(?:söyleme|bahsetme"
        r"|haber verme|gösterme|bildirme|anlatma)\b|\bkullanıcının haberi olmadan\b",
        "kullaniciya kullanicinin",
    ),
)
