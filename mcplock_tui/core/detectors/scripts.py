"""Keyword tables for payloads in non-Latin scripts: Cyrillic, CJK, Hangul, Arabic, Devanagari.

The same four families as :mod:`.languages` (overrides, concealment, role changes,
harvesting) plus requests for secrets, written in the script's own spelling and converted
to the matching form (voicing marks and vowel signs dropped, Hangul split into jamo). They
run on a view where look-alike letters are NOT folded to Latin, so the Russian "не" inside
an English sentence stays Cyrillic, and each table only when the text holds its script.

Which way it fails: as for :mod:`.languages`, a table of common imperative phrasings per
language; a paraphrase outside it is missed. Chinese and Japanese honest text about
"ignoring rules" or "previous settings" is kept quiet by requiring a word for earlier
instructions, so an override phrased only with "rules" is missed.
"""

from __future__ import annotations

import re

from mcplock_tui.core.detectors.base import Hit, quote, rx
from mcplock_tui.core.detectors.languages import CO, HV, LABELS, OV, RO, SE
from mcplock_tui.core.detectors.normalize import char_forms


def _native(src: str) -> str:
    """A regex source in the unfolded matching form (marks dropped, Hangul as jamo)."""
    return "".join(ch if ch.isascii() else char_forms(ch)[0] for ch in src)


# Scripts other than Latin, matched on the unfolded view. Gates are in matching form too.
_CYRILLIC = re.compile("[\u0400-\u04ff]")
_CJK = re.compile("[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f]")
_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f]")
_ARABIC = re.compile("[\u0600-\u06ff]")
_DEVANAGARI = re.compile("[\u0900-\u097f]")

_RU_USER = r"(?:пользовател|юзер|человек|клиент|оператор|користувач)\w*"
_ZH_USER = r"(?:用户|用戶|使用者|客户|客戶)"
_NATIVE: dict[str, tuple[tuple[str, str], ...]] = {
    "cyrillic": (
        (
            OV,
            r"(?:проигнорируй|игнорируй|игнорируйте|забудь|забудьте|отбрось|отбросьте|отмени"
            r"|не учитывай|не обращай внимания на|игноруй|проігноруй|забудь про)"
            r"(?: (?:все|всё|любые|всі|усі))? (?:предыдущие|прежние|вышеуказанные|предшествующие"
            r"|старые|данные ранее|системные|свои|твои|изначальные|попередні|усі попередні)"
            r" (?:инструкции|указания|правила|команды|установки|директивы|інструкції|вказівки"
            r"|правила)",
        ),
        (
            CO,
            r"не (?:говори|говорите|сообщай|сообщайте|рассказывай|рассказывайте|упоминай"
            r"|упоминайте|показывай|показывайте|раскрывай|сообщать|говорить|кажи|повідомляй"
            r"|розповідай)(?: (?:об этом|ничего|про это|этого|нічого|про це))* " + _RU_USER,
        ),
        (
            CO,
            r"(?:скрой|скройте|утаи|утаите) (?:это )?от "
            + _RU_USER
            + r"|приховай (?:це )?від "
            + _RU_USER
            + r"|без ведома "
            + _RU_USER
            + r"|чтобы "
            + _RU_USER
            + r" не (?:заметил|узнал|увидел|знал)",
        ),
        (RO, r"(?<!\w)(?:теперь|отныне|с этого момента) ты(?!\w)|(?<!\w)тепер ти(?!\w)"),
        (
            OV,
            r"(?:забудь|забудьте|игнорируй|игнорируйте|проигнорируй)(?: (?:всё|все))?,? (?:что|чему)"
            r" (?:тебе|вам) (?:говорили|сказали|писали|велели|поручили)",
        ),
        (
            SE,
            r"(?:отправь|отправьте|перешли|перешлите|загрузи|загрузите|скопируй)[^.!?\n]{0,30}"
            r"(?:ключ|пароль|токен|учетные данные|секрет)",
        ),
        (
            HV,
            r"(?:всю|весь|всего) (?:переписку|диалог|разговор|историю (?:переписки|диалога"
            r"|разговора|чата))|(?:твой|свой|ваш) системный (?:промпт|запрос)"
            r"|(?:твои|свои|ваши) (?:системные|исходные|изначальные) инструкции",
        ),
    ),
    "cjk": (
        (
            OV,
            r"(?:忽略|忽視|无视|無視|忘记|忘記|忘掉|不要理会|不要理會|不要遵守|不再遵守|停止遵守)"
            r"(?:(?:你|您)?(?:的)?(?:之前|以前|先前|上面|以上|上述|前面|原有|原来|原來|原先|所有|全部"
            r"|系统|系統)(?:的)?(?:所有|全部|一切)?(?:的)?(?:指令|指示|说明|說明|规则|規則|提示|要求"
            r"|命令|内容|內容)|(?:所有|全部)?(?:的)?(?:指令|指示))",
        ),
        (
            OV,
            r"(?:以前|前|上記|これまで|先ほど|今まで|過去|元|最初|システム)の(?:すべての|全ての)?"
            r"(?:指示|命令|ルール|指令|プロンプト)(?:を|は)?(?:すべて|全て|全部)?"
            r"(?:無視|忘れ|破棄)",
        ),
        (
            CO,
            r"(?:不要|别|別|不得|切勿|请勿|請勿|勿|不能|不可以?)(?:告诉|告訴|通知|提醒|让|讓|透露给"
            r"|透露給|提示|向|对|對|跟|给|給)"
            + _ZH_USER
            + r"|(?:瞒着|瞞著|背着|背著)"
            + _ZH_USER
            + r"|(?:对|對)"
            + _ZH_USER
            + r"保密",
        ),
        (
            CO,
            r"ユーザー(?:に|へ)(?:は)?(?:伝え|知らせ|言わ|教え|見せ|報告し|通知し)(?:ないで|るな"
            r"|ないように|てはいけ)|ユーザーに(?:知られ|気づかれ|ばれ)(?:ないよう|ずに)"
            r"|こっそり|密かに|秘密裏に|内緒で",
        ),
        (
            RO,
            r"你现在是|你現在是|从现在开始你|從現在開始你|あなたは今|今からあなたは|これからあなたは",
        ),
        (
            HV,
            r"(?:整个|整個|全部|完整|所有)(?:的)?(?:对话|對話|聊天|会话|會話)(?:记录|記錄|历史|歷史"
            r"|内容|內容)|(?:你的|您的)(?:系统提示|系統提示|初始指令|系统指令|系統指令)"
            r"|(?:この|これまでの|今までの|すべての|全ての)(?:会話|チャット|対話)"
            r"|あなたのシステムプロンプト",
        ),
        (
            SE,
            r"(?:读取|讀取|发送|發送|上传|上傳|复制|複製|获取|獲取|收集|窃取|竊取)[^。\n]{0,10}"
            r"(?:私钥|私鑰|密钥|密鑰|密码|密碼|令牌|凭据|憑據|凭证|憑證)|(?:私钥|私鑰|密钥|密鑰|密码|密碼"
            r"|令牌|凭据|憑據|凭证|憑證)[^。\n]{0,10}(?:发送|發送|上传|上傳|转发|轉發|提交|复制|複製)",
        ),
    ),
    "hangul": (
        (
            OV,
            r"(?:이전|앞의|위의|기존|이전의|앞선|지금까지의) ?(?:모든 )?(?:지시|지침|명령|규칙"
            r"|지시사항|지시 사항)(?:을|를|은|는|들을)? ?(?:모두 |전부 |다 )?(?:무시|잊어)",
        ),
        (
            CO,
            r"(?:사용자|유저|이용자)(?:에게|한테)(?:는)? ?(?:이 ?(?:사실|내용|것)을? ?)?(?:알리지"
            r"|말하지|보여주지|공개하지|언급하지) ?(?:마|말|않)",
        ),
        (RO, r"(?:이제|지금부터) (?:너는|당신은)"),
        (
            CO,
            r"(?:사용자|유저|이용자) ?몰래|(?:사용자|유저|이용자)(?:가|는) (?:모르게|눈치채지 못하게)",
        ),
    ),
    "arabic": (
        (
            OV,
            r"(?:تجاهل|تجاهلي|انس|إنس|اهمل|أهمل)(?: (?:جميع|كل))? (?:التعليمات|الأوامر|الإرشادات"
            r"|التوجيهات)(?: (?:السابقة|السابقه|أعلاه|الأصلية))",
        ),
        (CO, r"(?:لا|لاتقم) (?:تخبر|تخبري|تبلغ|تذكر|تعلم) (?:ل|ال)?(?:المستخدم|المستخدمين)"),
    ),
    "devanagari": (
        (
            OV,
            r"(?:पिछले|पहले के|ऊपर के|पूर्व)(?: सभी| सारे)? (?:निर्देशों|निर्देश|आदेशों|नियमों)"
            r"(?: को)? (?:अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल)",
        ),
        (CO, r"(?:उपयोगकर्ता|यूज़र|यूजर) को (?:मत|न|ना) (?:बताएं|बताएँ|बताओ|बताना)"),
    ),
}
_GATES = {
    "cyrillic": _CYRILLIC,
    "cjk": _CJK,
    "hangul": _HANGUL,
    "arabic": _ARABIC,
    "devanagari": _DEVANAGARI,
}
_COMPILED: tuple[tuple[re.Pattern[str], tuple[tuple[str, re.Pattern[str]], ...]], ...] = tuple(
    (_GATES[name], tuple((code, rx(_native(src))) for code, src in table))
    for name, table in _NATIVE.items()
)


def detect(text: str) -> list[Hit]:
    """Hits of the non-Latin tables on ``text``, the unfolded matching form of a string."""
    out: list[Hit] = []
    if text.isascii():
        return out
    for gate, table in _COMPILED:
        if gate.search(text) is None:
            continue
        for code, regex in table:
            for m in regex.finditer(text):
                if m.end() > m.start():
                    out.append(Hit(code, m.start(), m.end(), f"{LABELS[code]}: {quote(m.group())}"))
    return out
