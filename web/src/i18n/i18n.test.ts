import { describe, expect, it } from 'vitest';
import { MemoryStorage, testEngine } from '../test-engine';
import { CATALOGUES, I18n, LANGS, detectLang, format, asLang, koreanParticle } from './index';

describe('catalogues', () => {
  it('have the same keys, none empty, and the same placeholders', () => {
    const keys = Object.keys(CATALOGUES.en).sort();
    for (const lang of LANGS) {
      const cat = CATALOGUES[lang] as Readonly<Record<string, string>>;
      expect(Object.keys(cat).sort()).toEqual(keys);
      for (const key of keys) {
        const text = cat[key] ?? '';
        expect(text.trim().length, `${lang}.${key}`).toBeGreaterThan(0);
        // A Korean particle rides on its placeholder (`{square|을}`): the hole is still `{square}`.
        const holes = (s: string) => [...new Set([...s.matchAll(/\{(\w+)(?:\|[^}]+)?\}/g)].map((m) => `{${m[1]}}`))].sort();
        expect(holes(text), `${lang}.${key}`).toEqual(holes(CATALOGUES.en[key as keyof typeof CATALOGUES.en]));
      }
    }
  });
});

describe('arranging hints', () => {
  it('name the squares a piece may not stand on in every mode, a friend’s room too', () => {
    // Where the rule begins in the hint of the CPU and two-player modes: it runs to the end.
    const ruleStart = { ja: '置けない場所', ko: '지뢰와 군기는', en: 'Mines and the flag' } as const;
    for (const lang of LANGS) {
      const cat = CATALOGUES[lang];
      const at = cat.setupHint.indexOf(ruleStart[lang]);
      expect(at, lang).toBeGreaterThan(0);
      expect(cat.onlineSetupHint, lang).toContain(cat.setupHint.slice(at));
    }
  });
});

describe('Korean particles', () => {
  it('take the form that the sound before them asks for, squares read as Korean numbers', () => {
    // Rows read 일 이 삼 사 오 육 칠 팔: 1, 3, 6, 7, 8 end in a consonant; 로 also follows ㄹ.
    const table: [string, string, string, string, string, string][] = [
      // square, 을/를, 이/가, 은/는, 과/와, 으로/로
      ['a1', '을', '이', '은', '과', '로'],
      ['b2', '를', '가', '는', '와', '로'],
      ['c3', '을', '이', '은', '과', '으로'],
      ['d4', '를', '가', '는', '와', '로'],
      ['e5', '를', '가', '는', '와', '로'],
      ['f6', '을', '이', '은', '과', '으로'],
      ['a7', '을', '이', '은', '과', '로'],
      ['cd8', '을', '이', '은', '과', '로'],
    ];
    for (const [square, ...forms] of table) {
      expect(['를', '가', '는', '와', '로'].map((p) => koreanParticle(square, p)), square).toEqual(forms);
      expect(['을', '이', '은', '과', '으로'].map((p) => koreanParticle(square, p)), square).toEqual(forms);
    }
    expect(koreanParticle('선공', '이')).toBe('이');
    expect(koreanParticle('대장', '가')).toBe('이');
    expect(koreanParticle('스파이', '이')).toBe('가');
    expect(koreanParticle('c3', '에서')).toBe('에서');
  });

  it('are filled in by the messages that need them', () => {
    const i18n = new I18n(testEngine().kinds, undefined, ['ko']);
    expect(i18n.t('youMoved', { from: 'c2', to: 'c3' })).toBe('내 말을 c2에서 c3으로 옮겼습니다.');
    expect(i18n.t('enemyMoved', { from: 'c5', to: 'c4' })).toBe('상대가 c5의 말을 c4로 옮겼습니다.');
    expect(i18n.t('chosen', { square: 'a3' })).toMatch(/^a3을 골랐습니다/);
    expect(i18n.t('swapped', { a: 'b3', b: 'b4', kindA: '대장', kindB: '공병' })).toBe('b3의 대장 말과 b4의 공병 말을 바꿨습니다.');
    expect(i18n.t('rule_outside_camp', { square: 'a6' })).toMatch(/^a6은 /);
    expect(format('{x|을}', {})).toBe('{x|을}');
  });

  it('are never written fixed after a square in the Korean catalogue', () => {
    // A square's row decides the particle, so one written out would be wrong for some rows.
    const squareHoles = ['square', 'a', 'b', 'from', 'to'];
    for (const [key, text] of Object.entries(CATALOGUES.ko)) {
      for (const m of text.matchAll(/\{(\w+)\}(을|를|이|가|은|는|과|와|으로|로)/g)) {
        expect(squareHoles.includes(m[1] ?? ''), `ko.${key}: ${m[0]}`).toBe(false);
      }
    }
  });
});

describe('sentences', () => {
  it('ends each line read out with the language’s full stop, once', () => {
    const en = new I18n(testEngine().kinds, undefined, []);
    en.setLang('en');
    expect(en.sentences(['Your spy won (b5)', 'The enemy moved c5 → c4.', 'Your turn'])).toBe(
      'Your spy won (b5). The enemy moved c5 → c4. Your turn.',
    );
    const ja = new I18n(testEngine().kinds, undefined, ['ja']);
    expect(ja.sentences(['あなたの中佐は負けました（c5）', '相手は c5 → c4 と指しました。'])).toBe(
      'あなたの中佐は負けました（c5）。相手は c5 → c4 と指しました。',
    );
    expect(en.sentences([])).toBe('');
  });
});

describe('language choice', () => {
  it('follows the browser between Japanese and Korean, else Japanese, and remembers a switch', () => {
    expect(detectLang(['ko-KR', 'en'])).toBe('ko');
    expect(detectLang(['fr', 'ja-JP'])).toBe('ja');
    expect(detectLang(['de'])).toBe('ja');
    // A browser's English (also what an unset browser says) leaves the page in Japanese.
    expect(detectLang(['en-US'])).toBe('ja');
    expect(detectLang(['en-US', 'ko'])).toBe('ko');
    expect(detectLang([])).toBe('ja');
    const storage = new MemoryStorage();
    const i18n = new I18n(testEngine().kinds, storage, ['ja']);
    expect(i18n.lang).toBe('ja');
    expect(i18n.kind('lieutenant_colonel')).toBe('中佐');
    i18n.setLang('ko');
    expect(i18n.kind('lieutenant_colonel')).toBe('중령');
    expect(new I18n(testEngine().kinds, storage, ['en']).lang).toBe('ko');
  });

  it('takes a storage that refuses to be read or written for none (a browser blocking it)', () => {
    const refusing = {
      getItem: (): string | null => {
        throw new DOMException('blocked', 'SecurityError');
      },
      setItem: (): void => {
        throw new DOMException('blocked', 'SecurityError');
      },
    };
    const i18n = new I18n(testEngine().kinds, refusing, ['ko']);
    expect(i18n.lang).toBe('ko');
    i18n.setLang('en');
    expect(i18n.lang).toBe('en');
  });

  it('takes a language named by a link parameter, if the page speaks it', () => {
    expect(asLang('ja')).toBe('ja');
    expect(asLang(' KO ')).toBe('ko');
    expect(asLang('en')).toBe('en');
    for (const bad of [null, '', 'fr', 'ja-JP', 'jp']) expect(asLang(bad)).toBeNull();
  });

  it('formats messages with piece names from the engine', () => {
    const i18n = new I18n(testEngine().kinds, undefined, []);
    i18n.setLang('en');
    expect(i18n.t('battleLost', { kind: i18n.kind('lieutenant_colonel'), square: 'c5' })).toBe(
      'Your lieutenant colonel lost (c5).',
    );
    expect(format('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });

  it('writes short names on the pieces where the full one is long', () => {
    const i18n = new I18n(testEngine().kinds, undefined, []);
    i18n.setLang('en');
    expect(i18n.kindOnPiece('lieutenant_general')).toBe('Lt. Gen.');
    expect(i18n.kindOnPiece('second_lieutenant')).toBe('2nd Lt.');
    expect(i18n.kindOnPiece('spy')).toBe('Spy');
    expect(i18n.kindOnPiece('engineer')).toBe('Eng.');
    // At most two words of at most five letters: each stands large on a face taller than wide.
    for (const kind of testEngine().kinds) {
      const words = i18n.kindOnPiece(kind.id).split(' ');
      expect(words.length, kind.id).toBeLessThanOrEqual(2);
      for (const word of words) expect(word.length, kind.id).toBeLessThanOrEqual(5);
      // Capitalised, as on a real piece: every kind has its face, none falls back to the sentence's word.
      expect(i18n.kindOnPiece(kind.id)).toMatch(/^[A-Z0-9]/);
    }
    i18n.setLang('ja');
    expect(i18n.kindOnPiece('lieutenant_general')).toBe('中将');
    i18n.setLang('ko');
    expect(i18n.kindOnPiece('second_lieutenant')).toBe('소위');
  });

  it('says how long the friend has been away in each language, as a time that stays true', () => {
    const i18n = new I18n(testEngine().kinds, undefined, ['ja']);
    const offer = (seconds: number) => i18n.t('onlineCpuOffer', { time: i18n.duration(seconds) });
    // Drawn once when the offer comes: "or more", since the time goes on while it is shown.
    expect(offer(120)).toBe('友達の接続が切れてから 2\u00a0分以上たちました。');
    expect(offer(45)).toBe('友達の接続が切れてから 45\u00a0秒以上たちました。');
    i18n.setLang('ko');
    expect(offer(120)).toBe('친구의 연결이 끊긴 지 2분 이상 지났습니다.');
    i18n.setLang('en');
    expect(offer(180)).toBe('Your friend has been away for 3 min or more.');
    expect(offer(90)).toBe('Your friend has been away for 90 s or more.');
    // How long by now (the server counts the seconds): whole minutes past two.
    expect(offer(121)).toBe('Your friend has been away for 2 min or more.');
    expect(offer(25 * 60 + 121)).toBe('Your friend has been away for 27 min or more.');
  });
});

describe('button names', () => {
  // The Japanese page (seeds/001) and its Korean edition (seeds/000) name the page's buttons; the
  // page uses those names so that what the rules and help say matches what is on the screen.
  const named: Readonly<Record<'ja' | 'ko', Readonly<Record<string, string>>>> = {
    ja: {
      modeLocal: 'この端末で 2 人で遊ぶ',
      modeCpuGote: '後手で始める（中級）',
      modeFriend: '友達と対戦（URL を送る）',
      onlineCopy: 'URL をコピー',
      onlineShare: '共有',
      onlineJoin: '参加する',
      onlineCpuNow: '待たずに CPU と遊ぶ',
      onlineCpuOfferTake: 'CPU と新しく対局する（今の対局は終わります）',
      rearrange: 'おまかせで並べ直す',
      mirror: '左右反転',
      previous: '前回の並べ方',
      confirm: 'この並べ方で決定',
      onlineConfirm: '決定して相手を待つ',
      onlineRearrange: '並べ直す',
      table: '勝敗表',
      view3dDiagonal: '斜めから',
      view3dTop: '真上から',
      gridHeading: 'ボタンで操作',
      handOver: '交代する',
      playAgain: 'もう一度',
      resign: '投了',
      chooseModeAgain: '遊び方を選び直す',
      undoSwap: '1 手戻す',
      onlineRematch: '先手と後手を入れ替えてもう一局',
    },
    ko: {
      modeLocal: '이 기기에서 2명이 하기',
      modeCpuGote: '후공으로 시작하기(중급)',
      modeFriend: '친구와 대전(URL 보내기)',
      onlineCopy: 'URL 복사',
      onlineShare: '공유',
      onlineJoin: '참가하기',
      onlineCpuNow: '기다리지 않고 AI와 하기',
      onlineCpuOfferTake: 'AI와 새 게임 시작하기(지금 게임은 끝납니다)',
      rearrange: '자동 배치',
      mirror: '좌우 반전',
      previous: '지난번 배치',
      confirm: '이 배치로 확정',
      onlineConfirm: '확정하고 상대 기다리기',
      onlineRearrange: '다시 배치하기',
      table: '승패표',
      view3dDiagonal: '비스듬히',
      view3dTop: '위에서',
      gridHeading: '버튼으로 조작',
      handOver: '교대하기',
      playAgain: '다시 하기',
      resign: '기권',
      chooseModeAgain: '플레이 방식 다시 선택하기',
      undoSwap: '한 수 무르기',
      onlineRematch: '선후공 바꿔서 한 판 더',
    },
  };

  it('use the names the rules page gives them, in Japanese and Korean', () => {
    for (const lang of ['ja', 'ko'] as const) {
      const cat = CATALOGUES[lang] as Readonly<Record<string, string>>;
      for (const [key, name] of Object.entries(named[lang])) expect(cat[key], `${lang}.${key}`).toBe(name);
    }
  });

  it('name the three CPU levels and both curtain buttons', () => {
    const ja = new I18n(testEngine().kinds, undefined, ['ja']);
    expect([ja.t('modeCpuBeginner'), ja.t('modeCpuIntermediate'), ja.t('modeCpuAdvanced')]).toEqual([
      'CPU と対戦：初級',
      'CPU と対戦：中級',
      'CPU と対戦：上級',
    ]);
    for (const key of ['modeCpuBeginnerDesc', 'modeCpuIntermediateDesc', 'modeCpuAdvancedDesc'] as const) {
      expect(ja.t(key)).toContain('先手（朱の駒）');
    }
    expect(ja.t('modeCpuGoteDesc')).toContain('後手（白木の駒）');
    expect(ja.t('startTurn', { side: ja.side('sente') })).toBe('先手の番を始める');
    expect(ja.t('startTurn', { side: ja.side('gote') })).toBe('後手の番を始める');
    const ko = new I18n(testEngine().kinds, undefined, ['ko']);
    expect([ko.t('modeCpuBeginner'), ko.t('modeCpuIntermediate'), ko.t('modeCpuAdvanced')]).toEqual([
      'AI와 대결: 초급',
      'AI와 대결: 중급',
      'AI와 대결: 고급',
    ]);
    expect(ko.t('startTurn', { side: ko.side('sente') })).toBe('선공 차례 시작하기');
  });

  it('report a battle with the own piece by name and the enemy piece unnamed', () => {
    const ja = new I18n(testEngine().kinds, undefined, ['ja']);
    expect(ja.t('battleLost', { kind: ja.kind('lieutenant_colonel'), square: 'c5' })).toBe('あなたの中佐は負けました（c5）。');
    expect(ja.t('battleBoth', { kind: ja.kind('captain'), square: 'b5' })).toMatch(/^あなたの大尉は相手の駒と相打ち/);
    const ko = new I18n(testEngine().kinds, undefined, ['ko']);
    expect(ko.t('battleLost', { kind: ko.kind('lieutenant_colonel'), square: 'c5' })).toBe('내 중령 말이 졌습니다(c5).');
    expect(ko.t('battleBoth', { kind: ko.kind('captain'), square: 'b5' })).toMatch(/상대 말/);
  });
});
