"""Demo clinic documents (consent form and brochure, in ja and en), written to file storage."""

DOCUMENTS: dict[str, dict[str, tuple[str, str]]] = {
    "consent-form": {
        "ja": (
            "同意書.txt",
            "遺伝カウンセリング 同意書\n\n"
            "私は、遺伝カウンセリングの目的、内容、健康・遺伝情報の取り扱いについて説明を受け、"
            "理解したうえで、遺伝カウンセリングを受けることに同意します。\n\n"
            "日付:\u3000\u3000年\u3000\u3000月\u3000\u3000日\n署名:\n",
        ),
        "en": (
            "consent-form.txt",
            "Genetic counseling consent form\n\n"
            "I have been told the purpose and content of genetic counseling and how my health "
            "and genetic information is handled, I understand them, and I agree to receive "
            "genetic counseling.\n\nDate:\nSignature:\n",
        ),
    },
    "brochure": {
        "ja": (
            "ご案内.txt",
            "遺伝カウンセリングのご案内\n\n"
            "出生前検査、着床前検査(PGT)、がんの遺伝学的検査について、"
            "認定遺伝カウンセラーがオンラインでご相談をお受けします。\n",
        ),
        "en": (
            "brochure.txt",
            "About genetic counseling\n\n"
            "Certified genetic counselors talk with you online about prenatal testing, "
            "preimplantation genetic testing (PGT) and hereditary cancer testing.\n",
        ),
    },
}
