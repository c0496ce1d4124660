import type { HelpDocument } from './types';

/** The help in English. */
export const helpEn: HelpDocument = {
  lang: 'en',
  title: 'Gunjin Shogi: rules and guide',
  tocLabel: 'Contents',
  sections: [
    {
      id: 'help-rules',
      title: 'Rules',
      blocks: [
        {
          kind: 'p',
          text: 'Gunjin Shogi (“soldiers’ shogi”) is a two-player war game in which every piece stands face down. When two pieces meet, a referee looks at both in secret and removes the loser; neither player learns what the other piece was. On this site a program plays the referee. What follows is the standard rule set the site uses.',
        },
      ],
      subsections: [
        {
          id: 'help-board',
          title: 'The board',
          cites: [3],
          blocks: [
            {
              kind: 'p',
              text: 'Two camps of 6 columns by 4 rows face each other across a river. The first player (Sente) owns rows 1–4, the second player (Gote) rows 5–8. Columns run from a on the left to f on the right as Sente sees the board, and row 1 is Sente’s back row.',
            },
            {
              kind: 'p',
              text: 'Every piece but the plane crosses the river only at the two bridges, on columns b and e: a bridge links b4 with b5 and e4 with e5 directly, and is not a square itself. The four squares at the ends of the bridges, b4, e4, b5 and e5, are called the entrances.',
            },
            {
              kind: 'p',
              text: 'In the middle of each back row, the c and d squares are joined into a single headquarters (HQ). It looks two squares wide but holds exactly one piece. Sente’s HQ is written cd1 and Gote’s cd8. That leaves 23 squares per camp and 46 on the whole board.',
            },
            {
              kind: 'p',
              text: 'When you play Gote, the board is turned round so that your own camp is nearest to you.',
            },
          ],
        },
        {
          id: 'help-pieces',
          title: 'Pieces and how many of each',
          cites: [3, 9],
          blocks: [
            {
              kind: 'p',
              text: 'Each player has 23 pieces, one for every square of the camp. The table lists them with their counts and moves.',
            },
            {
              kind: 'table',
              head: ['Piece', 'Count', 'Moves'],
              rows: [
                ['General (大将)', '1', 'one square up, down, left or right'],
                ['Lieutenant general (中将)', '1', 'one square up, down, left or right'],
                ['Major general (少将)', '1', 'one square up, down, left or right'],
                ['Colonel (大佐)', '1', 'one square up, down, left or right'],
                ['Lieutenant colonel (中佐)', '1', 'one square up, down, left or right'],
                ['Major (少佐)', '1', 'one square up, down, left or right'],
                ['Captain (大尉)', '2', 'one square up, down, left or right'],
                ['Lieutenant (中尉)', '2', 'one square up, down, left or right'],
                ['Second lieutenant (少尉)', '2', 'one square up, down, left or right'],
                ['Cavalry (騎兵)', '1', 'one square up, down, left or right, or two squares straight ahead'],
                ['Engineer (工兵)', '2', 'any distance in a straight line forwards, backwards or sideways, never past another piece'],
                ['Tank (タンク)', '2', 'one square up, down, left or right, or two squares straight ahead'],
                [
                  'Plane (飛行機)',
                  '2',
                  'any distance forward or backward, flying over pieces and the river; one square sideways',
                ],
                ['Spy (スパイ)', '1', 'one square up, down, left or right'],
                ['Mine (地雷)', '2', 'never moves'],
                ['Flag (軍旗)', '1', 'never moves'],
              ],
            },
            {
              kind: 'p',
              text: 'Only the six senior officers, from the general down to the major, can win the game by occupying the enemy HQ (see “Winning, losing and draws”).',
            },
          ],
        },
        {
          id: 'help-setup',
          title: 'Setting up',
          blocks: [
            {
              kind: 'ul',
              items: [
                'Before play, both players fill all 23 squares of their own camp, one piece per square, without seeing the other side’s arrangement.',
                'Mines and the flag may not stand on your own entrances (b4 and e4 for Sente, b5 and e5 for Gote).',
                'The flag may not stand on your back row either. The HQ is part of the back row, so the flag cannot go there.',
                'A mine may be placed in the HQ.',
                'An arrangement that breaks a rule is refused, with a message naming the piece, the square and the rule it breaks.',
              ],
            },
          ],
        },
        {
          id: 'help-moves',
          title: 'Moving',
          blocks: [
            {
              kind: 'p',
              text: 'Sente moves first, then the players alternate, moving one piece per turn. Passing is not allowed. “Forward” means towards the opponent’s camp. A piece can never move onto a square held by its own side.',
            },
            {
              kind: 'ul',
              items: [
                'The spy and the nine ranked officers, general to second lieutenant, step one square forward, backward or sideways.',
                'The tank and the cavalry step one square the same way, or advance two squares straight forward if the square in between is empty, attacking an enemy piece that stands on the second. That double step may cross a bridge (for Sente, b3 to b5, for example) but never the river anywhere else.',
                'The engineer runs along a row or column across as many empty squares as it likes. It cannot jump: it stops short of a friendly piece, and if an enemy piece blocks the line it may move onto that square and fight.',
                'The plane flies any distance forward or backward along its column, passing over pieces of either side and over the river. It may land on an empty square or on an enemy piece, and only a piece on its landing square fights it. Sideways it moves a single square.',
                'The mines and the flag stay where they were placed for the whole game.',
              ],
            },
            {
              kind: 'p',
              text: 'Every piece except the plane crosses the river by a bridge only.',
            },
            {
              kind: 'p',
              text: 'A move over several squares (the engineer’s run, the plane’s flight, the double step of the tank or cavalry) ends as soon as it enters an HQ, whether yours or the enemy’s. An HQ can be where a move stops, never a square it passes through.',
            },
            {
              kind: 'p',
              text: 'A piece in an HQ may set off along either column c or column d. Moving sideways out of an HQ leads to the b or e square of the back row (and an engineer may keep going along that row).',
            },
          ],
        },
        {
          id: 'help-battle',
          title: 'Battles and strength',
          cites: [3],
          blocks: [
            {
              kind: 'p',
              text: 'Moving onto a square held by an enemy piece starts a battle between the attacker (the piece that moved) and the defender. There are three possible outcomes.',
            },
            {
              kind: 'ul',
              items: [
                'Attacker wins: the defender is removed and the attacker takes its square.',
                'Defender wins: the attacker is removed.',
                'Both removed: both pieces leave the board and the square is empty.',
              ],
            },
            {
              kind: 'p',
              text: 'Between mobile pieces the stronger one wins, no matter which side attacked. From strongest to weakest: general > lieutenant general > major general > plane > tank > colonel > lieutenant colonel > major > captain > lieutenant > second lieutenant > cavalry > engineer > spy.',
            },
            {
              kind: 'ul',
              items: [
                'Two pieces of the same kind are both removed.',
                'The spy is the weakest piece but beats the general, whether it attacks or is attacked. The general beats every mobile piece of another kind but the spy.',
                'The tank beats the engineer. Some sources rule the other way; this site follows the tank (see “Rule choices on this site”).',
              ],
            },
            {
              kind: 'p',
              text: 'A mine only ever defends. A plane or an engineer that attacks it wins: the mine is removed and the attacker moves in. Any other attacker is removed together with the mine. Either way the mine is gone after its one battle.',
            },
          ],
        },
        {
          id: 'help-flag',
          title: 'The flag',
          cites: [3, 9],
          blocks: [
            {
              kind: 'p',
              text: 'The flag has no strength of its own. It borrows the strength of the friendly piece directly behind it: in the same column, one row closer to its own back row. For a flag on c2 or d2 that is the piece in cd1; for a flag on c7 or d7, the piece in cd8.',
            },
            {
              kind: 'ul',
              items: [
                'The piece behind and the attacker are compared by the win/loss table. If the piece behind would win, the attacker is removed.',
                'If the attacker would win, only the flag is removed and the attacker moves onto its square.',
                'The spy follows the same table: a spy attacking a flag with the general behind it wins, and the flag is removed.',
                'If the attacker is the same kind as the piece behind, the flag and the attacker are removed.',
                'In every case the piece behind stays where it is and is never removed by this battle.',
                'If a mine is behind, the flag fights like a mine: a plane or engineer takes the flag, anything else is removed together with the flag. The mine behind stays on the board and is not used up.',
                'If the square behind is empty or holds an enemy piece, the flag loses to any attacker.',
              ],
            },
          ],
        },
        {
          id: 'help-referee',
          title: 'What the referee announces',
          cites: [3],
          blocks: [
            {
              kind: 'p',
              text: 'After a battle the referee announces only the square and the outcome: attacker wins, defender wins, or both removed. It never names a piece, neither the attacker nor the defender. When both are removed you cannot tell whether it was two pieces of a kind, a mine or a flag.',
            },
            {
              kind: 'p',
              text: 'The page shows your own pieces with their names; enemy pieces stay face down until the game is over (a “?” on the button board).',
            },
          ],
        },
        {
          id: 'help-end',
          title: 'Winning, losing and draws',
          blocks: [
            {
              kind: 'ul',
              items: [
                'Occupation wins: the moment a general, lieutenant general, major general, colonel, lieutenant colonel or major enters the enemy HQ, that player wins, whether the HQ was empty or the officer won a battle there. Other pieces may enter the enemy HQ too, but that does not win.',
                'No move loses: a player who has no legal move when their turn comes loses. That includes a player who has lost every piece able to move.',
                '100 moves without a battle is a draw: if the two players together make 100 moves in a row with no battle, the game is drawn. Any battle resets the count to zero, and entering an HQ without a fight counts as an ordinary move.',
                'Neither side can move is a draw: if after a move neither player has a legal move, the game is drawn.',
                'Resigning: you may resign at any time, on your turn or on your opponent’s.',
              ],
            },
            {
              kind: 'p',
              text: 'After each move the game checks, in this order, for an occupation, for the 100-move draw, and for a side without moves. When the game ends, every piece of both players is turned face up.',
            },
          ],
        },
        {
          id: 'help-variants',
          title: 'Rule choices on this site',
          cites: [1, 3, 4, 9],
          blocks: [
            {
              kind: 'p',
              text: 'There has never been one official rule book for Gunjin Shogi: sets from different makers and regions disagree on details. In Ichinose Takeshi’s survey of the sets he owns, camps range from 5 to 8 columns wide and the entrances come in I, X and Y shapes. This site settles the details as follows.',
            },
            {
              kind: 'ul',
              items: [
                'Board and pieces: 6-column camps, 23 pieces, two straight bridges. Some Meiji sets gave each player 35 pieces; once tanks and planes joined the game, 23 and 31 became the usual counts, and this is one of those common layouts.',
                'Tank against engineer: the tank wins, as in most Shōwa-era (1926–1989) instruction leaflets. The engineer winning is a later rule, which appeared in sets made after missiles and similar pieces were added. Japanese Wikipedia’s battle table has the engineer win, yet its note says the tank winning is the de facto standard in video games.',
                'Mines: a mine is removed after its one battle, whatever the outcome. In the game Kōda Rohan described in 1900 the mine perishes in its own blast, and a 1996 set’s leaflet treats the mine as exploded and removes it, so it works only once. Many leaflets, though, only say that a mine beats ordinary pieces, and Japanese Wikipedia lists keeping the mine on the board as a local rule.',
                'Mine in the HQ: allowed. A 1913 (Taishō 2) book of games forbade it, and when Ichinose Takeshi was a child the ban was kept as an unwritten rule passed on by word of mouth; but the leaflets Takahashi Hironori examined set no rule on what stands in the HQ, apart from sets that include a marshal.',
                'Flag on the back row: not allowed, following Japanese Wikipedia, which calls this generally prohibited.',
                'Planes: they fly over pieces and over the river. Japanese Wikipedia says planes may jump, but Ichinose Takeshi has found no commercial leaflet that says so; Shōwa leaflets do state that a plane moves any number of squares vertically and only one square sideways.',
                'Winning: by occupying the HQ, as in most leaflets from the Meiji boards to Shōwa sets. Dictionaries define the win as capturing the enemy flag, and other versions are won by defeating the enemy general or by taking every piece that can move; on this site, capturing the flag does not win.',
                '100-move draw: sources handle a deadlock in many different ways, so the site draws a line at 100 moves.',
              ],
            },
          ],
        },
      ],
    },
    {
      id: 'help-howto',
      title: 'Using this page',
      blocks: [],
      subsections: [
        {
          id: 'help-modes',
          title: 'Ways to play',
          blocks: [
            {
              kind: 'p',
              text: 'Pick a mode with the buttons to the right of the board (below it on a narrow screen).',
            },
            {
              kind: 'ul',
              items: [
                'Play the CPU (beginner, intermediate or advanced): you are Sente and move the vermilion pieces.',
                'Start as Gote (intermediate): the intermediate CPU moves first, and you take the plain-wood pieces of Gote.',
                'Two players on this device: share one device, taking turns. A curtain hides the board between turns.',
                'Play a friend: send a link and play someone elsewhere.',
              ],
            },
            {
              kind: 'p',
              text: 'Your wins, losses and draws against the CPU are counted in this browser for each of its modes, and shown on the mode’s button and with each result. A resignation counts as a loss; a game left with “Play again” or “Choose the mode again” does not count.',
            },
          ],
        },
        {
          id: 'help-online',
          title: 'Playing a friend',
          blocks: [
            {
              kind: 'p',
              text: 'Creating a room shows its URL. Copy it (or use Share on devices that offer it) and send it to your friend. The game starts once they have opened the link and joined and you have both confirmed your arrangements; whoever created the room is Sente and the guest is Gote.',
            },
            {
              kind: 'p',
              text: 'If nobody turns up, you can stop waiting and play the CPU instead. If your opponent’s connection stays lost for 2 minutes during a game, a button appears that ends that game and starts a new one against the CPU.',
            },
            {
              kind: 'p',
              text: 'A room is deleted once nobody has been connected to it for 30 minutes, or 24 hours after it was created.',
            },
            {
              kind: 'p',
              text: 'After a game you can play again with Sente and Gote swapped. The pieces are arranged afresh for each game.',
            },
          ],
        },
        {
          id: 'help-hotseat',
          title: 'Two players on one device',
          blocks: [
            {
              kind: 'p',
              text: 'While each side arranges its pieces, and between turns, a curtain covers the board. The player about to arrange or move presses “Start Sente’s turn” (or “Start Gote’s turn”) on the curtain, and only that player’s pieces are shown with their names. After moving, they can read the battle result from their own point of view. Then “Hand over” lowers the curtain again, and the device goes to the other player.',
            },
          ],
        },
        {
          id: 'help-arrange',
          title: 'Arranging your pieces',
          blocks: [
            {
              kind: 'p',
              text: 'A new game opens with your camp already filled by an automatic arrangement. Change it as you like before confirming.',
            },
            {
              kind: 'ul',
              items: [
                'Swap: press one square (it gets a yellow frame), then another, and the two pieces change places.',
                'Refused swaps: if a swap would put a mine or the flag on a square where it may not stand, nothing moves and the page tells you why.',
                'Re-arrange automatically: builds a new automatic arrangement.',
                'Mirror left–right: flips the current arrangement.',
                'Previous arrangement: loads the one you last confirmed in a CPU or friend game, kept in this browser. Two players on one device do not get this button, so neither can call up the other\'s arrangement.',
                'Undo one step: takes back the most recent swap (or re-arrangement, mirroring or loaded arrangement).',
                'Confirm this arrangement: when you are happy with it, press this to start the game. In a friend game, while your friend has not confirmed yet, this button reads “Confirm and wait”.',
              ],
            },
            {
              kind: 'p',
              text: 'In a friend game you can keep arranging while you wait for your friend to join or to finish arranging. If you confirm early (“Confirm and wait”), the game server keeps your arrangement and the game starts the moment your friend confirms too; until then “Change my arrangement” takes it back. An arrangement confirmed while the connection is down is sent when it comes back.',
            },
          ],
        },
        {
          id: 'help-play',
          title: 'Making moves',
          blocks: [
            {
              kind: 'p',
              text: 'On your turn, press the piece you want to move and then its destination: single presses, with a mouse or a finger. The board marks:',
            },
            {
              kind: 'ul',
              items: [
                'Yellow frame: the selected piece.',
                'Green dots: empty squares it can reach.',
                'Red frames: enemy pieces it can attack.',
                'Orange frames: the start and end squares of the last move.',
              ],
            },
          ],
        },
        {
          id: 'help-results',
          title: 'Battle results and removed pieces',
          blocks: [
            {
              kind: 'p',
              text: 'After a battle a message such as “Your captain won (d5)” appears. Your own piece is named; the other one is only ever called “the enemy piece”.',
            },
            {
              kind: 'p',
              text: 'Under “Your removed pieces” your losses are listed by name; under “Enemy pieces removed” only their number is shown.',
            },
            {
              kind: 'p',
              text: 'Open the win/loss table to see, for each piece, which pieces it beats and which beat it, while you play.',
            },
          ],
        },
        {
          id: 'help-view',
          title: 'The 3D view',
          blocks: [
            {
              kind: 'ul',
              items: [
                'Drag the board with the mouse to orbit the camera around it; on a touch screen, drag with two fingers (one finger scrolls the page, and a tap picks a square).',
                'Zoom by turning the mouse wheel over the board, or with a two-finger pinch. The zoom goes towards the point you aim at, so the corners can be brought close too. A wheel that was scrolling the page keeps scrolling it as it passes over the board: stop, then turn the wheel over the board.',
                'After clicking a piece to pick it, the Esc key lets go of it.',
                'The two buttons at the board’s top right, “Slanted view” and “From above”, switch the viewpoint. From above, the pieces lie flat for easy reading. When the game ends they lie face up in either view, so no piece in front hides the names behind it.',
              ],
            },
          ],
        },
        {
          id: 'help-buttons',
          title: 'Button board and keyboard',
          blocks: [
            {
              kind: 'p',
              text: 'The “Button board (the same game, square by square)” panel shows all 46 squares as buttons, one per square, that do exactly what pressing the 3D board does. They sit on a 6 × 8 grid in which each headquarters spans two columns as a single wide button. With a keyboard, move between squares with the arrow keys and press one with Enter (or Space); Escape lets go of a picked piece or square. The whole game can be played from this panel alone, even on devices where the 3D view does not run.',
            },
          ],
        },
        {
          id: 'help-game-buttons',
          title: 'Buttons during a game',
          blocks: [
            {
              kind: 'ul',
              items: [
                'Play again: in CPU games and two-player games on one device, starts over from arranging the pieces.',
                'Resign: concede and end the game at once.',
                'Sound: the button at the top of the page turns on or off the sounds of moves, battles and the end of a game. While its name is struck through, nothing sounds. The choice stays in this browser.',
                'Choose the mode again: go back to choosing how to play. An unfinished game against the CPU or between two players on this device stays kept, and the start screen offers to go on with it.',
                'Look back over the game: appears once the game is over. “To the start”, “Back one move”, “Forward one move” and “To the end” step through the game from the starting arrangements to the last move, with every piece face up, so you can see which pieces met in each battle. On these buttons the ← and → keys step one move and Home and End go to the start and the end; each line of the game record shows the board after that move. The record is a single Tab stop: the ↑ and ↓ keys go along its lines, and Enter shows one.',
              ],
            },
            {
              kind: 'p',
              text: 'Once moves have begun there is no undo. Battle results give away clues about the enemy pieces, and taking a move back after seeing one would be unfair.',
            },
          ],
        },
      ],
    },
    {
      id: 'help-tips',
      title: 'Tips',
      cites: [9],
      blocks: [
        {
          kind: 'ul',
          items: [
            'Guard the HQ: put the general in it, or a mine with the general right next to it. With the general in the HQ, no lesser officer can take it. A plane alone is a weak guard: the HQ is empty the moment it flies off.',
            'Keep the general back: it is your last line of defence, not a spearhead.',
            'Choose what stands behind the flag: the general, the lieutenant general or a mine. A mine there works like a third mine. Remember the flag weakens if that piece moves away or is lost.',
            'Distrust pieces that never move: they may be mines or the flag. Send the general, lieutenant general and major general only against pieces that have moved, and probe unmoved ones with a plane or cheap pieces such as the captains, lieutenants, second lieutenants or the cavalry.',
            'Read a double removal: if your probing captain, lieutenant, second lieutenant or cavalry falls together with the enemy piece, that piece was the same kind, a mine, or a flag backed by the same kind or by a mine (in the flag case the piece behind it is still there).',
            'Test with the lieutenant general: against an enemy piece that has moved, it is the most informative attacker. If it wins, the piece is gone; if it loses, you have found the enemy general.',
            'Hunt the general with the spy: once you know where the enemy general stands, go for it with the spy. But a spy that always shadows your lieutenant general will be spotted and hunted.',
            'Narrow down from losses: a piece that beat your lieutenant is at least a captain (or, if it was the flag, the piece behind it is), so attacking it with a captain cannot win (two captains are both removed).',
            'Watch how pieces move: a two-square advance means a tank, cavalry, engineer or plane; a long sideways run means an engineer; a jump over pieces or the river means a plane.',
            'Your moves talk too: a plane jumping or an engineer running sideways gives its identity away. Early on, moving one square at a time like everyone else is safer.',
            'Before entering the enemy HQ, attack what is in it with a plane or an engineer to make sure it is not a mine.',
          ],
        },
      ],
    },
    {
      id: 'help-history',
      title: 'History',
      blocks: [
        {
          kind: 'p',
          text: 'In Gunjin Shogi the pieces are all the same size and shape with identical backs; they stand face down, and when two meet only the referee compares them and takes the loser off. Boxes sold from the Meiji era (1868–1912) on were mostly labelled Kōgun Shōgi (行軍将棋, “marching shogi”); Gunjin Shōgi (軍人将棋, “soldiers’ shogi”) spread as the everyday name. Japanese dictionaries still list the game under Kōgun Shōgi, with Gunjin Shōgi and Ikusa Shōgi (“battle shogi”) as other names.',
          cites: [1, 4, 5],
        },
        {
          kind: 'p',
          text: 'Nobody knows who invented it or when, but it was on sale and being played by 1895. A ten-year-old boy in Kameoka near Kyoto, Arakawa Minoru, wrote in his diary that on 7 October of that year he went to a shop called Naitō Hangetsudō to buy a set and played it with his father at home. A board printed the same year can be seen in a photograph in the photo book Omocha Hakubutsukan (“Toy Museum”). Claims that the game appeared around the Russo-Japanese War (1904–05), or was imported from the West, were rejected by Takahashi Hironori on the strength of such records.',
          cites: [1, 2],
        },
        {
          kind: 'p',
          text: 'The Meiji boards gave each player 35 pieces on a camp 7 squares wide and 5 deep, with three straight lanes joining the camps. It was a game for three: two players and an umpire, and entering the enemy headquarters won. Some boards said two people could play with the pieces face up if no umpire was at hand. In 1900 the writer Kōda Rohan described to the Yomiuri newspaper a “division shogi” with plain, equal-sized pieces marked on the back and a referee judging at the side.',
          cites: [1, 3],
        },
        {
          kind: 'p',
          text: 'Sekai Yūgihō Taizen, a 1907 compendium of games, guessed that the game dated from the First Sino-Japanese War (1894–95) and did not bother to explain it, since it was known all over the country. In January 1910 the Tokyo Asahi newspaper reported three imperial grandsons, among them the future Emperor Shōwa, playing it. Dictionaries quote it from fiction too: Izumi Kyōka’s Nihonbashi (1914) has “even in kōgun shōgi, the spy is a mighty one”, and Kobayashi Takiji’s The Absentee Landlord (1929) has “we drew lines on paper and all played Gunjin Shogi”. The word Kyōka uses for the spy, kanja, is an old one.',
          cites: [1, 4, 5],
        },
        {
          kind: 'p',
          text: 'New weapons kept joining the pieces. Sets with tanks seem to have existed in the Taishō era (1912–1926), and later boxes advertised that tanks and planes were included. The usual sizes became 23 and 31 pieces per side. Sets of the time wrote the plane in katakana, ヒコーキ; this site writes it 飛行機. The game was at its most popular from the late Taishō to the early Shōwa era.',
          cites: [1, 3, 4],
        },
        {
          kind: 'p',
          text: 'After the Second World War, sets with a marshal or an atomic bomb appeared. In November 1955 the Yomiuri reported that makers in Tendō, Yamagata, the home of shogi piece making, were selling well over the pre-war figure of about 500,000 sets a year, while that June a reader’s letter in the Mainichi had demanded that the game be banned. Sets with missiles followed in the late 1960s and early 1970s, and in 1976 a set with a device that judged battles in place of the referee. Needing a third person as referee is given as one reason the game faded.',
          cites: [1, 3],
        },
        {
          kind: 'p',
          text: 'The earliest known report of the game abroad dates from 1905, when a Dr Junghans presented it in the German magazine Monatshefte as a new Japanese war game: 35 pieces, a 7-by-5 camp and three straight lanes, just like the Japanese 35-piece sets, except that capturing the flag could also win. Patents for similar war games followed: Julie Berg in France and Britain in 1907, Josephine Tilden in the United States in April 1908, and Hermance Edan in France in November 1908.',
          cites: [1, 6, 7, 8],
        },
        {
          kind: 'p',
          text: 'Edan’s game went on sale in 1909–1910 as L’Attaque, and in 1925 the British firm Gibson bought the rights. Stratego, a lightly modified L’Attaque, was created in the Netherlands and its name registered in 1942. In both, the two pieces in a battle are shown to both players, and capturing the enemy flag wins; Gunjin Shogi keeps the pieces hidden behind a referee and is won by taking the HQ.',
          cites: [1, 10, 11],
        },
        {
          kind: 'p',
          text: 'On the question of origin, Takahashi Hironori (2016) found that every Western game of this family was sold in 1909 or later, judged it likely that the earliest was based on the 1905 magazine report of the Japanese game, and concluded that the genre began in Japan. The French game historian Michel Boutin also argues that Edan had the chance to know Gunjin Shogi, but in the end only claims that, whatever inspired him, Edan indirectly brought a Far Eastern game to the West. The historian Thierry Depaulis, on the other hand, holds that Edan’s patent grew out of a game he had made in the 1880s. Neither Takahashi nor Boutin found any record of L’Attaque before 1909.',
          cites: [1, 2, 10],
        },
      ],
    },
    {
      id: 'help-sources',
      title: 'Sources',
      blocks: [
        {
          kind: 'sources',
          items: [
            {
              kind: 'link',
              text: 'Takahashi Hironori, “Kōgun Shōgi in Japan and the world: Gunjin Shogi originated in Japan” (in Japanese), Bulletin of the Osaka University of Commerce Institute for Amusement Industry Studies, no. 18, 2016 (search on CiNii Research)',
              href: 'https://cir.nii.ac.jp/all?q=%E6%97%A5%E6%9C%AC%E3%81%A8%E4%B8%96%E7%95%8C%E3%81%AE%E8%A1%8C%E8%BB%8D%E5%B0%86%E6%A3%8B',
            },
            {
              kind: 'link',
              text: 'Michel Boutin, an article (in French) arguing that L’Attaque is a French game descended from Gunjin Shogi, in Art et savoir de l’Inde, ed. Michel Van Langendonckt, HEB, 2015 (search on WorldCat)',
              href: 'https://search.worldcat.org/search?q=Art%20et%20savoir%20de%20l%27Inde%20Van%20Langendonckt',
            },
            {
              kind: 'link',
              text: 'Ichinose Takeshi, A Study of Gunjin Shogi Rules (in Japanese), third revised edition, 2014 (web search)',
              href: 'https://www.google.com/search?q=%E4%B8%80%E3%83%8E%E7%80%AC%E6%AD%A6%E5%BF%97%20%E8%BB%8D%E4%BA%BA%E5%B0%86%E6%A3%8B%E3%83%AB%E3%83%BC%E3%83%AB%E7%A0%94%E7%A9%B6',
            },
            {
              kind: 'link',
              text: '“Kōgun Shōgi”, entries from the Digital Daijisen, the Nihon Kokugo Daijiten (select edition) and the Heibonsha World Encyclopedia (revised edition), on Kotobank (in Japanese)',
              href: 'https://kotobank.jp/search?q=%E8%A1%8C%E8%BB%8D%E5%B0%86%E6%A3%8B',
            },
            {
              kind: 'link',
              text: '“Gunjin Shōgi”, entry from the Nihon Kokugo Daijiten (select edition), on Kotobank (in Japanese)',
              href: 'https://kotobank.jp/search?q=%E8%BB%8D%E4%BA%BA%E5%B0%86%E6%A3%8B',
            },
            {
              kind: 'link',
              text: 'Julie Berg, Jeu de la guerre, French patent no. 379,625, 1907',
              href: 'https://patents.google.com/patent/FR379625A',
            },
            {
              kind: 'link',
              text: 'Josephine E. Tilden, Game apparatus, US patent no. 1,141,505, filed 1908, granted 1915',
              href: 'https://patents.google.com/patent/US1141505A',
            },
            {
              kind: 'link',
              text: 'Hermance Edan, a battle game with movable pieces on a chequered board, French patent no. 396,795, filed 1908, granted 1909',
              href: 'https://patents.google.com/patent/FR396795A',
            },
            {
              kind: 'link',
              text: 'Japanese Wikipedia, “Gunjin Shogi” (軍人将棋)',
              href: 'https://ja.wikipedia.org/wiki/%E8%BB%8D%E4%BA%BA%E5%B0%86%E6%A3%8B',
            },
            {
              kind: 'link',
              text: 'English Wikipedia, “L’Attaque”',
              href: 'https://en.wikipedia.org/wiki/L%27Attaque',
            },
            {
              kind: 'link',
              text: 'English Wikipedia, “Stratego”',
              href: 'https://en.wikipedia.org/wiki/Stratego',
            },
          ],
        },
      ],
    },
    {
      id: 'help-faq',
      title: 'Frequently asked questions',
      blocks: [
        {
          kind: 'qa',
          q: 'How old is Gunjin Shogi?',
          a: 'Its inventor is unknown, but it was certainly sold in shops by 1895: a diary from that autumn records a ten-year-old boy in Kameoka, near Kyoto, buying a set and playing it with his father. Pieces for new weapons such as tanks and planes were added later, and the game was most popular from the 1920s into the 1930s.',
        },
        {
          kind: 'qa',
          q: 'Can anything beat the general?',
          a: 'Only the spy, whether the spy attacks or the general does. Every other mobile piece loses to the general, and two generals remove each other. A general that attacks a mine is removed along with it. And a general attacking a flag with the spy behind it loses, because the flag fights with the spy’s strength.',
        },
        {
          kind: 'qa',
          q: 'Which wins, the tank or the engineer?',
          a: 'The tank, on this site, as in most Shōwa-era instruction leaflets. The engineer winning is a later rule, found in sets from after missiles and similar pieces were added, and it is what the Japanese Wikipedia table shows. You can check every pairing at any time in the win/loss table beside the board.',
        },
        {
          kind: 'qa',
          q: 'Do I lose if my general is taken?',
          a: 'No. The game is decided by occupying the enemy HQ with one of the six officers from general to major. Losing all six means you can no longer win by occupation, but it is not a loss in itself. You do lose if it is your turn and you have no legal move.',
        },
        {
          kind: 'qa',
          q: 'Does capturing the enemy flag win?',
          a: 'Not on this site. A flag that loses a battle is removed like any piece, but only occupying the HQ wins. Some sources do count taking the flag as a win; most leaflets from the Meiji to the Shōwa era use occupation.',
        },
        {
          kind: 'qa',
          q: 'Can my opponent see what my pieces are?',
          a: 'No. In a friend game the battles are judged by the game server, and what it sends your opponent has your piece kinds stripped out; they learn only the square of each battle and its outcome. The CPU does not see your pieces either: it guesses from your moves and the battle results. Everything is revealed when the game ends.',
        },
        {
          kind: 'qa',
          q: 'When is a game drawn?',
          a: 'When 100 moves in a row (both players counted together) pass without a battle, or when after a move neither player has a legal move, for example when the last two mobile pieces remove each other. Any battle starts the 100-move count again from zero. There is no agreed rule for deadlocks, so the site simply stops at 100.',
        },
        {
          kind: 'qa',
          q: 'Do we need a referee?',
          a: 'No. Traditionally a third person sat in as referee and compared the pieces. Here the referee is software: a program running in your browser for CPU games and for two players on one device, and the game server for friend games. On a shared device a curtain hides the board between turns, so each player sees only their own pieces.',
        },
        {
          kind: 'qa',
          q: 'Can I take back a move?',
          a: 'Not once moves have begun: a battle result can hint at what an enemy piece is, and replaying a move after seeing it would be unfair. While arranging your pieces you can still undo the last swap or start the arrangement over.',
        },
        {
          kind: 'qa',
          q: 'How many times does a mine work?',
          a: 'Once. A mine that is attacked leaves the board whatever the outcome. A mine standing behind the flag is not used up when the flag borrows its strength; attacked itself, it goes like any other mine.',
        },
        {
          kind: 'qa',
          q: 'What happens if I reload the page or close the tab mid-game?',
          a: 'Nothing is lost. A game against the CPU or between two players on this device is kept in this browser, and the start screen offers to go on with it (a two-player game resumes behind the curtain of the side to move). In a friend game, opening the room’s URL again in the same browser takes you back to your seat, and the game goes on where it stood. Left with “Choose the mode again”, the start screen’s “Back to the room” takes you back to the same seat (while the room lasts: up to 24 hours, less if nobody is connected to it for 30 minutes). An arrangement not yet confirmed is kept too, once you have changed it: a friend room puts it back by itself, and against the CPU the start screen offers “Go on arranging”.',
        },
        {
          kind: 'qa',
          q: 'Can I play without an internet connection?',
          a: 'Yes, once you have opened this site while online. Your browser keeps the page, so games against the CPU and games between two players on this device work with no connection, and on a phone you can add the site to the home screen and open it like an app. A friend game needs the connection, since the game server is its referee.',
        },
        {
          kind: 'qa',
          q: 'Can I keep the record of a game?',
          a: 'Yes. When a game is over, “Copy the game record”, below the buttons under “Look back over the game”, puts the whole game on the clipboard as text: both starting arrangements, then every move with the piece that moved, the piece it fought and how the battle ended.',
        },
      ],
    },
    {
      id: 'help-similar',
      title: 'Games like this one',
      blocks: [
        {
          kind: 'p',
          text: 'If you enjoy Gunjin Shogi, these games share one of its two halves: reasoning about what you cannot see, or a battle of pieces on a board.',
        },
        {
          kind: 'ul',
          items: [
            'Hit and Blow (Bulls and Cows, Mastermind): the code is hidden, and every guess brings back a result to reason from, much as each battle here narrows down an enemy piece.',
            'Checkers (draughts): pieces step diagonally and capture by jumping over the opponent’s; a battle on the board with every piece in plain sight.',
            'Stratego and L’Attaque: the Western games of concealed ranks, close relatives of Gunjin Shogi, where each piece shows its rank when it fights.',
          ],
        },
      ],
    },
  ],
};
