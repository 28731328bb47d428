"""Product pictures the page can show offline: one SVG pictogram per product type and colour.

Nothing is fetched at run time and nothing is stored: `product_svg` draws the type's
pictogram (its `icon` in the taxonomy) filled with the colour — a picture with no words in it,
so it reads the same on a Chinese and an English page — and the web app serves it at `image_path(type, color)` = `/images/<type>/<color>.svg`.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

from cartwise.catalog.taxonomy import product_type
from cartwise.errors import NotFound
from cartwise.vocabulary.colours import picture_fills

COLOR_HEX: dict[str, str] = picture_fills()
"""Pictogram fill of each colour name demo listings use (the vocabulary's colour table)."""

# Pictograms in a 120×96 box: {c} is the colour fill, {d} the outline, {l} a light accent.
_SHAPES: dict[str, str] = {
    "phone": '<rect x="40" y="8" width="40" height="80" rx="8" fill="{c}"/><rect x="45" y="16" width="30" height="60" rx="2" fill="{l}"/>',
    "tablet": '<rect x="22" y="12" width="76" height="72" rx="8" fill="{c}"/><rect x="29" y="19" width="62" height="58" rx="2" fill="{l}"/>',
    "laptop": '<rect x="26" y="14" width="68" height="48" rx="4" fill="{c}"/><rect x="32" y="20" width="56" height="36" fill="{l}"/><path d="M14 66h92l6 10H8z" fill="{c}"/>',
    "monitor": '<rect x="14" y="10" width="92" height="58" rx="4" fill="{c}"/><rect x="20" y="16" width="80" height="46" fill="{l}"/><rect x="54" y="68" width="12" height="12" fill="{c}"/><rect x="38" y="80" width="44" height="6" rx="3" fill="{c}"/>',
    "tv": '<rect x="8" y="12" width="104" height="62" rx="4" fill="{c}"/><rect x="14" y="18" width="92" height="50" fill="{l}"/><path d="M30 74l-6 12M90 74l6 12"/>',
    "headphones": '<path d="M26 60V48a34 34 0 0 1 68 0v12" fill="none" stroke-width="8" stroke="{c}"/><rect x="18" y="54" width="20" height="32" rx="8" fill="{c}"/><rect x="82" y="54" width="20" height="32" rx="8" fill="{c}"/>',
    "earbuds": '<circle cx="40" cy="40" r="16" fill="{c}"/><rect x="34" y="50" width="10" height="34" rx="5" fill="{c}"/><circle cx="80" cy="40" r="16" fill="{c}"/><rect x="76" y="50" width="10" height="34" rx="5" fill="{c}"/>',
    "speaker": '<rect x="34" y="8" width="52" height="80" rx="12" fill="{c}"/><circle cx="60" cy="34" r="10" fill="{l}"/><circle cx="60" cy="64" r="15" fill="{l}"/>',
    "watch": '<rect x="46" y="4" width="28" height="88" rx="6" fill="{c}"/><circle cx="60" cy="48" r="24" fill="{c}"/><circle cx="60" cy="48" r="18" fill="{l}"/><path d="M60 48V36M60 48h9"/>',
    "battery": '<rect x="24" y="22" width="70" height="52" rx="8" fill="{c}"/><rect x="94" y="38" width="8" height="20" rx="2" fill="{c}"/><path d="M62 30l-12 20h12l-4 16 14-22H60z" fill="{l}"/>',
    "plug": '<rect x="36" y="30" width="48" height="48" rx="8" fill="{c}"/><rect x="46" y="12" width="6" height="18" fill="{d}"/><rect x="68" y="12" width="6" height="18" fill="{d}"/><path d="M60 78v14" stroke-width="5"/>',
    "keyboard": '<rect x="8" y="28" width="104" height="44" rx="6" fill="{c}"/><path d="M18 40h84M18 50h84M18 60h84" stroke="{l}" stroke-width="5" stroke-dasharray="7 4"/>',
    "mouse": '<rect x="38" y="12" width="44" height="74" rx="22" fill="{c}"/><path d="M60 14v22"/>',
    "camera": '<rect x="12" y="26" width="96" height="58" rx="8" fill="{c}"/><rect x="40" y="16" width="30" height="12" rx="3" fill="{c}"/><circle cx="60" cy="55" r="20" fill="{l}"/><circle cx="60" cy="55" r="11" fill="{d}"/>',
    "router": '<rect x="14" y="52" width="92" height="28" rx="6" fill="{c}"/><path d="M28 52L20 14M60 52V10M92 52l8-38" stroke-width="5"/><circle cx="30" cy="66" r="3" fill="{l}"/><circle cx="42" cy="66" r="3" fill="{l}"/>',
    "gamepad": '<path d="M30 28h60a22 22 0 0 1 20 30l-6 16a10 10 0 0 1-16 2L80 66H40l-8 10a10 10 0 0 1-16-2l-6-16a22 22 0 0 1 20-30z" fill="{c}"/><path d="M34 40v16M26 48h16" stroke="{l}" stroke-width="5"/><circle cx="84" cy="42" r="4" fill="{l}"/><circle cx="92" cy="52" r="4" fill="{l}"/>',
    "drive": '<rect x="24" y="20" width="72" height="56" rx="6" fill="{c}"/><rect x="32" y="28" width="34" height="10" fill="{l}"/><circle cx="84" cy="66" r="4" fill="{l}"/>',
    "printer": '<rect x="36" y="8" width="48" height="26" fill="{l}"/><rect x="14" y="32" width="92" height="38" rx="6" fill="{c}"/><rect x="34" y="60" width="52" height="30" fill="{l}"/>',
    "mic": '<rect x="46" y="8" width="28" height="48" rx="14" fill="{c}"/><path d="M36 44a24 24 0 0 0 48 0M60 68v18M44 88h32" fill="none" stroke-width="5"/>',
    "fridge": '<rect x="34" y="4" width="52" height="88" rx="5" fill="{c}"/><path d="M34 36h52M44 16v12M44 46v16" stroke-width="4"/>',
    "washer": '<rect x="22" y="8" width="76" height="82" rx="6" fill="{c}"/><circle cx="60" cy="54" r="24" fill="{l}"/><path d="M30 20h24" stroke-width="4"/>',
    "aircon": '<rect x="8" y="24" width="104" height="40" rx="10" fill="{c}"/><path d="M20 54h80M30 72l-4 12M60 72v12M90 72l4 12" stroke-width="4"/>',
    "microwave": '<rect x="10" y="18" width="100" height="64" rx="6" fill="{c}"/><rect x="18" y="26" width="62" height="48" rx="3" fill="{l}"/><circle cx="96" cy="38" r="5" fill="{l}"/><circle cx="96" cy="58" r="5" fill="{l}"/>',
    "pot": '<rect x="22" y="36" width="76" height="48" rx="10" fill="{c}"/><path d="M18 34h84" stroke-width="6"/><rect x="52" y="22" width="16" height="10" rx="4" fill="{c}"/><path d="M10 50h12M98 50h12" stroke-width="6"/>',
    "kettle": '<path d="M34 86h52l-6-58H40z" fill="{c}"/><path d="M86 40c18 4 18 30 0 34" fill="none" stroke-width="7"/><path d="M40 40L20 28" stroke-width="7"/><rect x="48" y="18" width="24" height="10" rx="4" fill="{c}"/>',
    "vacuum": '<path d="M76 8L50 74" stroke-width="8"/><rect x="24" y="70" width="52" height="16" rx="6" fill="{c}"/><rect x="64" y="10" width="24" height="34" rx="8" fill="{c}"/>',
    "fan": '<circle cx="60" cy="38" r="32" fill="{l}"/><path d="M60 38c-6-22 18-26 14-6zM60 38c22-2 20 22 2 14zM60 38c-12 18-32 4-14-8z" fill="{c}"/><path d="M60 70v14M42 88h36" stroke-width="6"/>',
    "sofa": '<rect x="22" y="24" width="76" height="34" rx="8" fill="{c}"/><rect x="8" y="40" width="20" height="38" rx="6" fill="{c}"/><rect x="92" y="40" width="20" height="38" rx="6" fill="{c}"/><rect x="26" y="56" width="68" height="20" rx="4" fill="{c}"/><path d="M16 78v10M104 78v10"/>',
    "chair": '<rect x="36" y="6" width="48" height="44" rx="8" fill="{c}"/><rect x="30" y="50" width="60" height="14" rx="4" fill="{c}"/><path d="M38 64v26M82 64v26" stroke-width="6"/>',
    "table": '<rect x="8" y="30" width="104" height="12" rx="3" fill="{c}"/><path d="M18 42v46M102 42v46" stroke-width="8" stroke="{c}"/>',
    "bed": '<rect x="10" y="20" width="16" height="66" rx="3" fill="{c}"/><rect x="26" y="50" width="86" height="24" rx="4" fill="{c}"/><rect x="30" y="40" width="24" height="12" rx="5" fill="{l}"/><path d="M106 74v14"/>',
    "shelf": '<rect x="24" y="4" width="72" height="88" fill="none" stroke="{c}" stroke-width="6"/><path d="M24 32h72M24 60h72" stroke="{c}" stroke-width="5"/><rect x="32" y="12" width="8" height="18" fill="{d}"/><rect x="42" y="14" width="8" height="16" fill="{d}"/><rect x="60" y="40" width="8" height="18" fill="{d}"/><rect x="36" y="68" width="22" height="20" fill="{d}"/>',
    "textile": '<rect x="18" y="56" width="84" height="24" rx="5" fill="{c}"/><rect x="24" y="34" width="72" height="22" rx="5" fill="{c}"/><rect x="30" y="14" width="60" height="20" rx="5" fill="{c}"/>',
    "lamp": '<path d="M36 44h48L72 8H48z" fill="{c}"/><path d="M60 44v38" stroke-width="6"/><rect x="38" y="82" width="44" height="8" rx="4" fill="{c}"/>',
    "bulb": '<circle cx="60" cy="36" r="28" fill="{c}"/><rect x="48" y="62" width="24" height="20" rx="3" fill="{d}"/><path d="M50 70h20M50 76h20" stroke="{l}"/>',
    "box": '<rect x="16" y="30" width="88" height="58" rx="4" fill="{c}"/><rect x="12" y="18" width="96" height="14" rx="3" fill="{c}"/><rect x="48" y="46" width="24" height="8" rx="3" fill="{l}"/>',
    "hanger": '<path d="M60 30v-8a8 8 0 1 1 8-8" fill="none" stroke-width="5"/><path d="M60 30L10 70h100z" fill="none" stroke="{c}" stroke-width="7"/>',
    "bottle": '<rect x="50" y="6" width="20" height="14" rx="3" fill="{d}"/><path d="M50 20h20l10 16v50a4 4 0 0 1-4 4H44a4 4 0 0 1-4-4V36z" fill="{c}"/><rect x="46" y="48" width="28" height="24" fill="{l}"/>',
    "broom": '<path d="M66 6L54 64" stroke-width="6"/><path d="M30 66h56l8 24H22z" fill="{c}"/>',
    "candle": '<rect x="34" y="36" width="52" height="54" rx="6" fill="{c}"/><path d="M60 8c10 12 6 20 0 22-6-2-10-10 0-22z" fill="#f2a22c"/><path d="M60 30v6"/>',
    "clock": '<circle cx="60" cy="48" r="40" fill="{c}"/><circle cx="60" cy="48" r="32" fill="{l}"/><path d="M60 48V26M60 48l14 8" stroke-width="5"/>',
    "mirror": '<ellipse cx="60" cy="42" rx="28" ry="36" fill="{c}"/><ellipse cx="60" cy="42" rx="21" ry="29" fill="{l}"/><path d="M60 78v10M44 90h32" stroke-width="5"/>',
    "pan": '<circle cx="46" cy="52" r="34" fill="{c}"/><circle cx="46" cy="52" r="26" fill="{l}"/><path d="M78 44l34-12" stroke-width="9"/>',
    "knife": '<path d="M10 54L82 30v24z" fill="{l}"/><rect x="82" y="32" width="30" height="16" rx="4" fill="{c}"/>',
    "board": '<rect x="14" y="20" width="92" height="62" rx="10" fill="{c}"/><circle cx="94" cy="32" r="5" fill="{l}"/>',
    "flask": '<rect x="42" y="4" width="36" height="16" rx="4" fill="{d}"/><rect x="40" y="20" width="40" height="70" rx="10" fill="{c}"/><path d="M40 36h40" stroke="{l}" stroke-width="3"/>',
    "mug": '<rect x="26" y="22" width="52" height="64" rx="6" fill="{c}"/><path d="M78 36c22 0 22 34 0 34" fill="none" stroke="{c}" stroke-width="8"/>',
    "bowl": '<path d="M12 38h96a48 48 0 0 1-96 0z" fill="{c}"/><path d="M40 88h40" stroke-width="6"/>',
    "blocks": '<rect x="14" y="40" width="92" height="44" rx="3" fill="{c}"/><rect x="22" y="28" width="16" height="12" fill="{c}"/><rect x="44" y="28" width="16" height="12" fill="{c}"/><rect x="66" y="28" width="16" height="12" fill="{c}"/><rect x="88" y="28" width="12" height="12" fill="{c}"/>',
    "bear": '<circle cx="34" cy="22" r="12" fill="{c}"/><circle cx="86" cy="22" r="12" fill="{c}"/><circle cx="60" cy="46" r="34" fill="{c}"/><circle cx="48" cy="40" r="4" fill="{d}"/><circle cx="72" cy="40" r="4" fill="{d}"/><ellipse cx="60" cy="58" rx="12" ry="9" fill="{l}"/>',
    "car": '<path d="M10 62l10-22h18l12-16h32l16 16h12v22z" fill="{c}"/><circle cx="34" cy="68" r="11" fill="{d}"/><circle cx="88" cy="68" r="11" fill="{d}"/><rect x="56" y="28" width="22" height="12" fill="{l}"/>',
    "dice": '<rect x="22" y="14" width="76" height="76" rx="12" fill="{c}"/><circle cx="42" cy="34" r="6" fill="{l}"/><circle cx="60" cy="52" r="6" fill="{l}"/><circle cx="78" cy="70" r="6" fill="{l}"/>',
    "drone": '<rect x="44" y="38" width="32" height="22" rx="6" fill="{c}"/><path d="M44 42L22 24M76 42l22-18M44 56L22 74M76 56l22 18" stroke-width="5"/><ellipse cx="20" cy="22" rx="16" ry="4" fill="{c}"/><ellipse cx="100" cy="22" rx="16" ry="4" fill="{c}"/><ellipse cx="20" cy="76" rx="16" ry="4" fill="{c}"/><ellipse cx="100" cy="76" rx="16" ry="4" fill="{c}"/>',
    "diaper": '<path d="M12 20h96v18c-14 4-24 16-26 46H38c-2-30-12-42-26-46z" fill="{c}"/><rect x="12" y="20" width="14" height="14" fill="{l}"/><rect x="94" y="20" width="14" height="14" fill="{l}"/>',
    "stroller": '<path d="M26 20a40 40 0 0 1 44 0v34H26z" fill="{c}"/><rect x="26" y="46" width="60" height="16" rx="6" fill="{c}"/><path d="M86 54l14-40" stroke-width="5"/><circle cx="36" cy="80" r="9" fill="{d}"/><circle cx="80" cy="80" r="9" fill="{d}"/>',
    "can": '<rect x="30" y="16" width="60" height="72" rx="6" fill="{c}"/><ellipse cx="60" cy="16" rx="30" ry="7" fill="{d}"/><rect x="30" y="38" width="60" height="26" fill="{l}"/>',
    "bag": '<path d="M18 36h84l-8 52H26z" fill="{c}"/><path d="M40 36a20 20 0 0 1 40 0" fill="none" stroke-width="6"/>',
    "book": '<rect x="26" y="8" width="68" height="82" rx="3" fill="{c}"/><rect x="26" y="8" width="12" height="82" fill="{d}"/><rect x="46" y="22" width="38" height="8" fill="{l}"/>',
    "pen": '<path d="M20 88l8-22 62-62 14 14-62 62z" fill="{c}"/><path d="M20 88l8-22 14 14z" fill="{l}"/>',
    "calculator": '<rect x="30" y="6" width="60" height="86" rx="6" fill="{c}"/><rect x="38" y="14" width="44" height="18" fill="{l}"/><path d="M40 44h40M40 58h40M40 72h40" stroke="{l}" stroke-width="7" stroke-dasharray="8 8"/>',
    "stapler": '<path d="M10 56h92a8 8 0 0 1 0 16H10z" fill="{c}"/><path d="M16 54l4-22h84a8 8 0 0 1 0 16H24z" fill="{c}"/>',
    "backpack": '<rect x="26" y="18" width="68" height="74" rx="18" fill="{c}"/><path d="M44 18a16 16 0 0 1 32 0" fill="none" stroke-width="6"/><rect x="38" y="56" width="44" height="26" rx="6" fill="{l}"/>',
    "paw": '<ellipse cx="60" cy="62" rx="22" ry="18" fill="{c}"/><circle cx="32" cy="40" r="9" fill="{c}"/><circle cx="48" cy="24" r="9" fill="{c}"/><circle cx="72" cy="24" r="9" fill="{c}"/><circle cx="88" cy="40" r="9" fill="{c}"/>',
    "tent": '<path d="M60 8L8 88h104z" fill="{c}"/><path d="M60 40L44 88h32z" fill="{l}"/>',
    "coat": '<path d="M40 10l20 12 20-12 26 16-8 24-10-4v42H32V46l-10 4-8-24z" fill="{c}"/><path d="M60 22v66" stroke="{l}" stroke-width="3"/>',
    "umbrella": '<path d="M8 50a52 44 0 0 1 104 0z" fill="{c}"/><path d="M60 50v30a8 8 0 0 1-16 0" fill="none" stroke-width="5"/><path d="M60 6v6"/>',
    "flashlight": '<path d="M14 38h56v24H14z" fill="{c}"/><path d="M70 30l24-12v64L70 70z" fill="{c}"/><path d="M100 36l12-6M100 50h14M100 64l12 6" stroke="#f2c230" stroke-width="4"/>',
    "pole": '<path d="M40 8l-8 82M80 8l8 82" stroke="{c}" stroke-width="6"/><rect x="34" y="6" width="12" height="22" rx="4" fill="{d}"/><rect x="74" y="6" width="12" height="22" rx="4" fill="{d}"/>',
    "mat": '<rect x="8" y="56" width="90" height="20" rx="4" fill="{c}"/><circle cx="96" cy="48" r="28" fill="{c}"/><circle cx="96" cy="48" r="12" fill="{l}"/>',
    "dumbbell": '<path d="M30 48h60" stroke-width="8"/><rect x="14" y="24" width="18" height="48" rx="4" fill="{c}"/><rect x="88" y="24" width="18" height="48" rx="4" fill="{c}"/><rect x="4" y="32" width="10" height="32" rx="3" fill="{c}"/><rect x="106" y="32" width="10" height="32" rx="3" fill="{c}"/>',
    "racket": '<ellipse cx="60" cy="34" rx="26" ry="30" fill="{l}" stroke="{c}" stroke-width="7"/><path d="M60 64v28" stroke="{c}" stroke-width="9"/>',
    "ball": '<circle cx="60" cy="48" r="40" fill="{c}"/><path d="M20 48h80M60 8v80M32 20c16 16 16 40 0 56M88 20c-16 16-16 40 0 56" fill="none" stroke="{d}" stroke-width="3"/>',
    "bike": '<circle cx="28" cy="64" r="22" fill="none" stroke="{d}" stroke-width="5"/><circle cx="92" cy="64" r="22" fill="none" stroke="{d}" stroke-width="5"/><path d="M28 64l20-34h34l10 34M48 30l14 34h30M44 22h14M80 30l-4-14h12" fill="none" stroke="{c}" stroke-width="6"/>',
    "helmet": '<path d="M12 70a48 50 0 0 1 96 0z" fill="{c}"/><path d="M30 40h60" stroke="{l}" stroke-width="5"/>',
    "treadmill": '<path d="M10 78l84-12" stroke="{c}" stroke-width="12"/><path d="M90 66l10-54h14" fill="none" stroke="{c}" stroke-width="6"/>',
    "rope": '<path d="M24 20c0 90 72 90 72 0" fill="none" stroke="{c}" stroke-width="5"/><rect x="18" y="6" width="12" height="24" rx="5" fill="{d}"/><rect x="90" y="6" width="12" height="24" rx="5" fill="{d}"/>',
    "goggles": '<path d="M6 48h108" stroke="{c}" stroke-width="5"/><ellipse cx="38" cy="48" rx="22" ry="16" fill="{c}"/><ellipse cx="82" cy="48" rx="22" ry="16" fill="{c}"/><ellipse cx="38" cy="48" rx="14" ry="9" fill="{l}"/><ellipse cx="82" cy="48" rx="14" ry="9" fill="{l}"/>',
    "shoe": '<path d="M10 74V44l26-4 18 14 40 8a18 18 0 0 1 16 12z" fill="{c}"/><path d="M8 74h104v10H8z" fill="{l}"/>',
    "boot": '<path d="M34 8h34v48l34 14a10 10 0 0 1 8 10H34z" fill="{c}"/><path d="M32 80h80v10H32z" fill="{d}"/>',
    "sandal": '<path d="M10 70h100v10H10z" fill="{c}"/><path d="M34 70c0-20 30-20 30 0M70 70c0-16 22-16 22 0" fill="none" stroke="{c}" stroke-width="7"/>',
    "heel": '<path d="M12 50c30 0 40 30 92 24v6H52l-8-12-16 22h-6z" fill="{c}"/><path d="M12 50v44" stroke="{c}" stroke-width="6"/>',
    "shirt": '<path d="M40 8h40l30 20-12 18-12-8v52H34V38l-12 8-12-18z" fill="{c}"/><path d="M48 8a12 12 0 0 0 24 0" fill="{l}"/>',
    "pants": '<path d="M32 6h56l8 86H66L60 36l-6 56H24z" fill="{c}"/><path d="M32 14h56" stroke="{l}" stroke-width="3"/>',
    "dress": '<path d="M46 6h28l-4 24 30 62H20l30-62z" fill="{c}"/><path d="M42 34h36" stroke="{l}" stroke-width="3"/>',
    "sock": '<path d="M44 6h32v48l22 16a12 12 0 0 1-10 22H54L40 78a20 20 0 0 1 4-24z" fill="{c}"/><path d="M44 18h32" stroke="{l}" stroke-width="4"/>',
    "scarf": '<path d="M24 18h72v18H70v56H52V36H24z" fill="{c}"/><path d="M52 84h18M52 90h18" stroke="{l}" stroke-width="3"/>',
    "hat": '<path d="M26 60a34 34 0 0 1 68 0z" fill="{c}"/><path d="M14 60h70a26 8 0 0 1 26 8H14z" fill="{c}"/>',
    "glove": '<path d="M34 90V40l-8-16a5 5 0 0 1 9-4l9 14V12a5 5 0 0 1 10 0v24V8a5 5 0 0 1 10 0v28V12a5 5 0 0 1 10 0v26V22a5 5 0 0 1 10 0v38c0 16-6 30-14 30z" fill="{c}"/>',
    "belt": '<rect x="6" y="38" width="108" height="20" rx="4" fill="{c}"/><rect x="40" y="32" width="30" height="32" rx="4" fill="none" stroke="{d}" stroke-width="5"/>',
    "suitcase": '<rect x="28" y="20" width="64" height="64" rx="8" fill="{c}"/><path d="M48 20V8h24v12" fill="none" stroke-width="5"/><path d="M46 30v44M74 30v44" stroke="{l}" stroke-width="4"/><circle cx="38" cy="90" r="5" fill="{d}"/><circle cx="82" cy="90" r="5" fill="{d}"/>',
    "wallet": '<rect x="14" y="22" width="92" height="60" rx="8" fill="{c}"/><path d="M14 38h92" stroke="{l}" stroke-width="3"/><rect x="76" y="46" width="30" height="18" rx="4" fill="{l}"/>',
    "gem": '<path d="M30 14h60l20 22-50 56-50-56z" fill="{c}"/><path d="M10 36h100M44 14l-8 22 24 56 24-56-8-22" fill="none" stroke="{l}" stroke-width="3"/>',
    "ring": '<circle cx="60" cy="58" r="28" fill="none" stroke="{c}" stroke-width="10"/><path d="M48 22h24l8 10-20 14-20-14z" fill="#bfe3f2"/>',
    "glasses": '<circle cx="34" cy="52" r="22" fill="{c}"/><circle cx="86" cy="52" r="22" fill="{c}"/><path d="M56 48c4-6 4-6 8 0M12 46L4 30M108 46l8-16" fill="none" stroke-width="4"/>',
    "lipstick": '<rect x="40" y="48" width="40" height="44" rx="4" fill="{d}"/><rect x="44" y="30" width="32" height="20" fill="#d9b44a"/><path d="M48 30V14l24-8v24z" fill="{c}"/>',
    "jar": '<rect x="26" y="16" width="68" height="18" rx="4" fill="{d}"/><rect x="20" y="34" width="80" height="52" rx="10" fill="{c}"/><rect x="34" y="48" width="52" height="22" fill="{l}"/>',
    "tube": '<path d="M30 20h60l-10 68H40z" fill="{c}"/><rect x="44" y="6" width="32" height="14" rx="3" fill="{d}"/><rect x="42" y="42" width="36" height="20" fill="{l}"/>',
    "palette": '<rect x="12" y="22" width="96" height="56" rx="8" fill="{d}"/><circle cx="36" cy="40" r="10" fill="{c}"/><circle cx="60" cy="40" r="10" fill="{c}" opacity=".7"/><circle cx="84" cy="40" r="10" fill="{c}" opacity=".45"/><circle cx="36" cy="62" r="10" fill="{l}"/><circle cx="60" cy="62" r="10" fill="{c}" opacity=".85"/><circle cx="84" cy="62" r="10" fill="{l}"/>',
    "perfume": '<rect x="50" y="8" width="20" height="16" rx="3" fill="{d}"/><rect x="24" y="26" width="72" height="64" rx="12" fill="{c}"/><rect x="40" y="44" width="40" height="26" rx="3" fill="{l}"/>',
    "toothbrush": '<rect x="54" y="30" width="12" height="62" rx="6" fill="{c}"/><rect x="52" y="8" width="16" height="26" rx="5" fill="{l}"/><path d="M56 12v18M64 12v18" stroke="{c}"/>',
    "shaver": '<rect x="38" y="30" width="44" height="62" rx="14" fill="{c}"/><rect x="30" y="8" width="60" height="24" rx="8" fill="{d}"/><circle cx="60" cy="54" r="5" fill="{l}"/>',
    "dryer": '<rect x="14" y="18" width="70" height="34" rx="17" fill="{c}"/><rect x="84" y="24" width="20" height="22" rx="4" fill="{d}"/><rect x="40" y="48" width="18" height="44" rx="6" fill="{c}"/>',
    "bag_food": '<path d="M28 14h64l-4 10 8 64H24l8-64z" fill="{c}"/><path d="M28 14h64" stroke="{d}" stroke-width="5"/><ellipse cx="60" cy="56" rx="20" ry="14" fill="{l}"/>',
    "tea": '<path d="M16 36h72v18a36 34 0 0 1-72 0z" fill="{c}"/><path d="M88 42c16 0 16 22 0 22" fill="none" stroke="{c}" stroke-width="6"/><path d="M52 8c16 6 16 20 0 24-10-6-10-18 0-24z" fill="#6fae4f"/>',
    "bar": '<rect x="14" y="18" width="92" height="62" rx="4" fill="{c}"/><path d="M45 18v62M75 18v62M14 49h92" stroke="{l}" stroke-width="3"/>',
    "carton": '<path d="M34 24l26-16 26 16v64H34z" fill="{c}"/><path d="M34 24h52" stroke="{d}" stroke-width="3"/><rect x="42" y="44" width="36" height="26" fill="{l}"/>',
    "hose": '<circle cx="52" cy="50" r="36" fill="none" stroke="{c}" stroke-width="9"/><circle cx="52" cy="50" r="20" fill="none" stroke="{c}" stroke-width="9"/><path d="M88 50h22" stroke="{c}" stroke-width="9"/>',
    "plant": '<path d="M34 58h52l-6 34H40z" fill="{c}"/><path d="M60 58V28M60 40c-20-2-26-18-20-26 12 2 20 12 20 26zM60 34c18-4 24-20 18-28-12 2-18 14-18 28z" fill="#4c9a5a"/>',
    "shears": '<path d="M62 50L106 14M62 50l44 20" stroke-width="6"/><circle cx="34" cy="34" r="14" fill="none" stroke="{c}" stroke-width="8"/><circle cx="34" cy="70" r="14" fill="none" stroke="{c}" stroke-width="8"/>',
    "mower": '<rect x="14" y="50" width="68" height="26" rx="8" fill="{c}"/><circle cx="26" cy="80" r="9" fill="{d}"/><circle cx="70" cy="80" r="9" fill="{d}"/><path d="M80 52l26-44" stroke-width="6"/>',
    "drill": '<path d="M18 26h66a10 10 0 0 1 10 10v6a10 10 0 0 1-10 10H60l-6 34H34l4-34H18z" fill="{c}"/><path d="M94 40h20" stroke-width="6"/>',
    "screwdriver": '<rect x="10" y="40" width="40" height="18" rx="8" fill="{c}"/><path d="M50 49h56" stroke-width="6"/><path d="M106 44v10"/>',
    "toolbox": '<rect x="12" y="34" width="96" height="54" rx="6" fill="{c}"/><path d="M42 34V20h36v14" fill="none" stroke-width="6"/><path d="M12 54h96" stroke="{l}" stroke-width="4"/>',
    "tape": '<rect x="16" y="22" width="68" height="60" rx="14" fill="{c}"/><circle cx="50" cy="52" r="14" fill="{l}"/><path d="M84 70h28v10H84z" fill="#f2c230"/>',
    "hammer": '<path d="M56 30l-8 62" stroke="{d}" stroke-width="9"/><path d="M24 16h62l12 10v10H80l-6-6H24z" fill="{c}"/>',
    "wrench": '<path d="M26 86L72 40" stroke="{c}" stroke-width="12"/><path d="M84 8a22 22 0 1 0 20 20l-14 4-8-8z" fill="{c}"/>',
    "ladder": '<path d="M36 6L26 92M84 6l10 86" stroke="{c}" stroke-width="6"/><path d="M34 24h52M32 44h56M29 64h62M27 84h66" stroke="{c}" stroke-width="5"/>',
    "airfryer": '<rect x="28" y="10" width="64" height="80" rx="18" fill="{c}"/><rect x="36" y="48" width="48" height="34" rx="6" fill="{l}"/><path d="M50 62h20" stroke-width="6"/><circle cx="60" cy="28" r="8" fill="{l}"/>',
    "ricecooker": '<path d="M20 44a40 20 0 0 1 80 0z" fill="{c}"/><rect x="18" y="44" width="84" height="42" rx="12" fill="{c}"/><rect x="46" y="56" width="28" height="14" rx="3" fill="{l}"/><rect x="54" y="18" width="12" height="8" rx="3" fill="{d}"/>',
    "coffeemaker": '<rect x="26" y="8" width="60" height="18" rx="4" fill="{c}"/><rect x="26" y="26" width="20" height="60" fill="{c}"/><rect x="26" y="82" width="68" height="8" rx="3" fill="{c}"/><path d="M60 26v14" stroke-width="6"/><path d="M52 56h24l-3 24H55z" fill="{l}"/>',
    "blender": '<path d="M36 8h48l-8 58H44z" fill="{l}" stroke="{c}" stroke-width="5"/><path d="M50 40l20-8M50 30l20 8" stroke="{c}" stroke-width="3"/><rect x="34" y="66" width="52" height="24" rx="6" fill="{c}"/><circle cx="60" cy="78" r="5" fill="{l}"/>',
    "purifier": '<rect x="34" y="6" width="52" height="86" rx="10" fill="{c}"/><circle cx="60" cy="30" r="14" fill="{l}"/><path d="M42 56h36M42 64h36M42 72h36M42 80h36" stroke="{l}" stroke-width="3"/>',
    "humidifier": '<path d="M60 34c-20 22-24 32-24 40a24 24 0 0 0 48 0c0-8-4-18-24-40z" fill="{c}"/><path d="M50 24c0-8 6-8 6-16M62 24c0-8 6-8 6-16" fill="none" stroke="{c}" stroke-width="4"/><rect x="40" y="86" width="40" height="6" rx="3" fill="{d}"/>',
    "heater": '<rect x="14" y="20" width="92" height="60" rx="6" fill="{c}"/><path d="M30 28v44M44 28v44M58 28v44M72 28v44M86 28v44" stroke="{l}" stroke-width="5"/><path d="M24 80v10M96 80v10" stroke-width="6"/>',
    "robotvac": '<circle cx="60" cy="50" r="40" fill="{c}"/><circle cx="60" cy="50" r="28" fill="none" stroke="{l}" stroke-width="3"/><circle cx="60" cy="26" r="7" fill="{l}"/>',
    "projector": '<rect x="10" y="40" width="72" height="40" rx="8" fill="{c}"/><circle cx="62" cy="60" r="12" fill="{l}"/><path d="M74 52l38-22v60L74 68z" fill="#f2c230" opacity=".5"/>',
    "steamer": '<rect x="50" y="10" width="20" height="56" rx="8" fill="{c}"/><rect x="40" y="6" width="40" height="14" rx="5" fill="{c}"/><rect x="30" y="66" width="60" height="24" rx="8" fill="{c}"/><path d="M32 10c-6-4-6-8 0-10M24 16c-6-4-6-8 0-10" fill="none" stroke="{d}" stroke-width="3"/>',
    "waterfilter": '<rect x="34" y="8" width="44" height="84" rx="6" fill="{c}"/><rect x="42" y="18" width="28" height="40" rx="4" fill="{l}"/><path d="M78 30h18v14" fill="none" stroke-width="6"/><path d="M96 50v8" stroke="#3b6fd8" stroke-width="4"/>',
    "babyseat": '<path d="M30 20c0-10 50-10 56 0l8 48a20 20 0 0 1-20 22H42a20 20 0 0 1-20-22z" fill="{c}"/><path d="M40 40h36v30H40z" fill="{l}"/><path d="M58 40v30" stroke="{c}" stroke-width="4"/>',
    "pacifier": '<circle cx="60" cy="28" r="14" fill="none" stroke="{c}" stroke-width="7"/><ellipse cx="60" cy="58" rx="34" ry="12" fill="{c}"/><path d="M52 70c0 22 16 22 16 0z" fill="{l}"/>',
    "cattree": '<path d="M40 20v72M84 40v52" stroke="{d}" stroke-width="8"/><rect x="20" y="12" width="40" height="12" rx="4" fill="{c}"/><rect x="64" y="34" width="40" height="12" rx="4" fill="{c}"/><rect x="14" y="84" width="92" height="10" rx="4" fill="{c}"/><rect x="26" y="52" width="32" height="22" rx="8" fill="{c}"/>',
    "aquarium": '<rect x="10" y="18" width="100" height="66" rx="4" fill="#bfe3f2" stroke="{c}" stroke-width="6"/><path d="M48 50c10-12 26-12 32 0-6 12-22 12-32 0zM80 50l10-8v16z" fill="{c}"/><path d="M24 84c0-10 6-14 6-24M34 84c0-8-4-12-4-18" fill="none" stroke="#4c9a5a" stroke-width="4"/>',
    "bin": '<path d="M26 30h68l-8 60H34z" fill="{c}"/><rect x="20" y="20" width="80" height="12" rx="4" fill="{c}"/><rect x="50" y="12" width="20" height="10" rx="3" fill="{d}"/><path d="M46 42v38M60 42v38M74 42v38" stroke="{l}" stroke-width="3"/>',
    "tissue": '<rect x="14" y="44" width="92" height="44" rx="6" fill="{c}"/><ellipse cx="60" cy="50" rx="22" ry="6" fill="{d}"/><path d="M46 50c0-24 28-24 28-34 8 10 0 22-8 34z" fill="#ffffff"/>',
    "basket": '<path d="M14 34h92l-10 56H24z" fill="{c}"/><path d="M20 48h80M22 62h76M24 76h72M40 34l-4 56M60 34v56M80 34l4 56" stroke="{l}" stroke-width="3"/>',
    "wateringcan": '<path d="M30 40h48v46H30z" fill="{c}"/><path d="M78 48l30-24" stroke="{c}" stroke-width="8"/><path d="M102 18l10 12" stroke-width="6"/><path d="M30 50c-18 0-18 26 0 26" fill="none" stroke="{c}" stroke-width="7"/>',
    "dashcam": '<rect x="24" y="36" width="72" height="44" rx="10" fill="{c}"/><circle cx="60" cy="58" r="14" fill="{l}"/><circle cx="60" cy="58" r="7" fill="{d}"/><path d="M60 36V16M44 12h32" stroke-width="6"/>',
    "meter": '<rect x="30" y="6" width="52" height="80" rx="8" fill="{c}"/><rect x="38" y="14" width="36" height="18" fill="{l}"/><circle cx="56" cy="56" r="14" fill="{l}"/><path d="M56 56l8-8" stroke-width="4"/><path d="M40 86l-20 8M72 86l24 8" stroke="#d8433b" stroke-width="4"/>',
    "gluegun": '<path d="M12 30h70a12 12 0 0 1 0 24H48l-6 36H26l4-36H12z" fill="{c}"/><path d="M94 42h20" stroke-width="5"/><rect x="4" y="36" width="10" height="12" rx="2" fill="#f2c230"/>',
    "grinder": '<rect x="10" y="40" width="62" height="22" rx="10" fill="{c}"/><circle cx="90" cy="52" r="24" fill="{l}" stroke="{d}" stroke-width="4"/><path d="M70 36l14 6" stroke-width="6"/><path d="M30 40V28" stroke-width="7"/>',
    "kettlebell": '<path d="M38 40a22 22 0 0 1 44 0" fill="none" stroke="{c}" stroke-width="10"/><circle cx="60" cy="62" r="30" fill="{c}"/><rect x="46" y="54" width="28" height="8" rx="3" fill="{l}"/>',
    "puzzle": '<path d="M14 24h30a10 10 0 1 1 20 0h30v30a10 10 0 1 0 0 20v22H64a10 10 0 1 0-20 0H14V74a10 10 0 1 1 0-20z" fill="{c}"/>',
    "necklace": '<path d="M22 10c0 48 76 48 76 0" fill="none" stroke="{c}" stroke-width="4" stroke-dasharray="3 3"/><path d="M60 58l12 14-12 20-12-20z" fill="{c}"/><circle cx="60" cy="48" r="4" fill="{d}"/>',
    "bracelet": '<ellipse cx="60" cy="50" rx="40" ry="30" fill="none" stroke="{c}" stroke-width="8"/><circle cx="60" cy="20" r="7" fill="{c}"/><circle cx="24" cy="40" r="6" fill="{c}"/><circle cx="96" cy="40" r="6" fill="{c}"/><circle cx="30" cy="68" r="6" fill="{c}"/><circle cx="90" cy="68" r="6" fill="{c}"/>',
    "headlamp": '<ellipse cx="60" cy="50" rx="44" ry="30" fill="none" stroke="{d}" stroke-width="7"/><rect x="40" y="54" width="40" height="30" rx="8" fill="{c}"/><circle cx="60" cy="69" r="9" fill="#f2c230"/>',
    "stove": '<rect x="26" y="64" width="68" height="22" rx="6" fill="{c}"/><path d="M34 64l-10 24M86 64l10 24" stroke-width="5"/><path d="M60 58c-14-10-4-24 0-34 4 10 14 24 0 34z" fill="#f2a22c"/><path d="M36 58h48" stroke-width="5"/>',
    "mattress": '<rect x="8" y="36" width="104" height="34" rx="10" fill="{c}"/><path d="M22 46v14M40 46v14M58 46v14M76 46v14M94 46v14" stroke="{l}" stroke-width="3"/><path d="M8 58h104" stroke="{d}" stroke-width="2"/>',
    "petbed": '<ellipse cx="60" cy="62" rx="50" ry="24" fill="{c}"/><ellipse cx="60" cy="58" rx="34" ry="13" fill="{l}"/><circle cx="44" cy="30" r="5" fill="{d}"/><circle cx="56" cy="24" r="5" fill="{d}"/><circle cx="68" cy="24" r="5" fill="{d}"/><ellipse cx="56" cy="38" rx="9" ry="7" fill="{d}"/>',
    "wardrobe": '<rect x="22" y="4" width="76" height="84" rx="3" fill="{c}"/><path d="M60 4v84" stroke="{l}" stroke-width="3"/><path d="M54 40v12M66 40v12" stroke="{l}" stroke-width="4"/><path d="M28 88v6M92 88v6" stroke-width="5"/>',
    "drawers": '<rect x="24" y="14" width="72" height="72" rx="4" fill="{c}"/><path d="M24 38h72M24 62h72" stroke="{l}" stroke-width="3"/><path d="M52 26h16M52 50h16M52 74h16" stroke="{l}" stroke-width="4"/><path d="M30 86v8M90 86v8" stroke-width="5"/>',
    "sleepingbag": '<path d="M30 10h60l8 74a8 8 0 0 1-8 8H30a8 8 0 0 1-8-8z" fill="{c}"/><ellipse cx="60" cy="26" rx="20" ry="10" fill="{l}"/><path d="M60 38v50" stroke="{l}" stroke-width="3" stroke-dasharray="5 4"/>',
    "phonemount": '<rect x="40" y="6" width="40" height="64" rx="6" fill="{c}"/><path d="M34 30h8M78 30h8M34 46h8M78 46h8" stroke-width="6"/><path d="M60 70v12" stroke-width="6"/><rect x="40" y="82" width="40" height="10" rx="4" fill="{d}"/>',
    "freshener": '<path d="M60 8l28 34H72l22 28H26l22-28H32z" fill="{c}"/><rect x="54" y="70" width="12" height="16" fill="{d}"/><path d="M60 0v8" stroke-width="3"/>',
    "inflator": '<rect x="20" y="30" width="58" height="52" rx="10" fill="{c}"/><circle cx="49" cy="56" r="14" fill="{l}"/><path d="M49 56l6-8" stroke-width="3"/><path d="M78 48c24 0 24 30 34 30" fill="none" stroke="{d}" stroke-width="5"/>',
    "seatcover": '<path d="M40 8h40a8 8 0 0 1 8 8v40H32V16a8 8 0 0 1 8-8z" fill="{c}"/><path d="M26 56h68a8 8 0 0 1 8 8v14H18V64a8 8 0 0 1 8-8z" fill="{c}"/><path d="M46 20h28M46 34h28" stroke="{l}" stroke-width="4"/>',
    "band": '<path d="M16 40c0-20 88-20 88 0v16c0 20-88 20-88 0z" fill="none" stroke="{c}" stroke-width="9"/>',
    "seedpack": '<rect x="28" y="8" width="64" height="84" rx="4" fill="{c}"/><rect x="36" y="20" width="48" height="40" rx="3" fill="{l}"/><path d="M60 56V36M60 44c-10-2-12-10-10-14 8 0 10 8 10 14zM60 40c8-4 12-10 10-14-8 2-10 8-10 14z" fill="#4c9a5a"/><circle cx="46" cy="74" r="3" fill="{l}"/><circle cx="60" cy="78" r="3" fill="{l}"/><circle cx="74" cy="74" r="3" fill="{l}"/>',
    "stockpot": '<rect x="24" y="30" width="72" height="58" rx="8" fill="{c}"/><path d="M20 28h80" stroke-width="6"/><rect x="52" y="16" width="16" height="10" rx="4" fill="{c}"/><path d="M10 42h14M96 42h14" stroke-width="6"/>',
}  # fmt: skip


def _is_dark(fill: str) -> bool:
    """A fill dark enough for a light accent on it (luma below 150 of 255)."""
    red, green, blue = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * red + 0.587 * green + 0.114 * blue < 150


@lru_cache(maxsize=4096)
def product_svg(type_slug: str, color: str) -> str:
    """The pictogram of a product type in a colour, as an SVG document.

    Raises `NotFound` for an unknown type or colour (the route answers 404)."""
    kind = product_type(type_slug)
    if kind is None:
        raise NotFound("product type", type_slug)
    if color not in COLOR_HEX:
        raise NotFound("colour", color)
    fill = COLOR_HEX[color]
    dark = _is_dark(fill)
    outline = "#555" if color == "black" else "#2b2b2b"
    light = "#f4f4f0" if dark else "#ffffff"
    shape = _SHAPES.get(kind.icon, _SHAPES["box"])
    body = shape.replace("{c}", fill).replace("{d}", outline).replace("{l}", light)
    label = escape(kind.en)
    # No words drawn in the picture: the card says what it is in the page's language; the
    # accessible name is for tools that open the image alone.
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 130" width="160" height="130"'
        f' role="img" aria-label="{label} ({color})">'
        '<rect width="160" height="130" rx="14" fill="#e3e7ec"/>'
        f'<g transform="translate(20 17)" stroke="{outline}" stroke-width="2"'
        ' stroke-linecap="round" stroke-linejoin="round">'
        f"{body}</g></svg>"
    )


def image_path(type_slug: str, color: str) -> str:
    """Where the web app serves the pictogram of `type_slug` in `color`."""
    return f"/images/{type_slug}/{color}.svg"


def icons() -> frozenset[str]:
    """The pictograms that are drawn (a type whose icon is not among them gets a box)."""
    return frozenset(_SHAPES)


__all__ = ["COLOR_HEX", "icons", "image_path", "product_svg"]
